import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/security/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
