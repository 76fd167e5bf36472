/**
 * The cost folder's light entry point: prices, the ledger and the budget, for the first screen,
 * without the price table's JSON reader (`price-table.ts`, zod), which loads when a table is read.
 */
export * from './prices.ts';
export * from './usage-cost.ts';
export * from './ledger.ts';
export * from './budget.ts';
export * from './summary.ts';
