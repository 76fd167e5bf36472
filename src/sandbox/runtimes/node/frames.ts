/** Shared by the uncaught-error printer and the TAP report. */
/** Stack frames inside the sandbox's own Node library say nothing about the program. */
export function withoutInternalFrames(stack: string): string {
  return stack
    .split('\n')
    .filter((l) => !/^\s+at .*(\(node:internal\/|\(native\)|^\s+at <eval> \(node:internal)/.test(l))
    .join('\n');
}
