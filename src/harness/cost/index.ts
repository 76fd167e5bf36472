export * from './prices.ts';
export * from './price-table.ts';
export * from './usage-cost.ts';
export * from './ledger.ts';
export * from './budget.ts';
export * from './summary.ts';
