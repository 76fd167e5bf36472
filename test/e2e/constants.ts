/** The dummy API key the live-mode test types in; the fake server accepts only this one. */
export const E2E_API_KEY = 'sk-ant-e2e-dummy-key-0123456789';
