/**
 * A bad command line or input file: the runner prints its message and exits 2. Its own tiny
 * module, so the start-up path can test for it without loading what throws it.
 */
export class UsageError extends Error {}
