/**
 * Every key builder of the single table (shared/store/item-keys.ts, where
 * each is documented) as one object, `keys`, for code outside the function
 * bundles: the tests, the operator CLI, the bench. The stores import
 * item-keys.ts as a namespace instead, so that a bundle keeps only the
 * builders its function calls: an object of them is kept whole wherever it is
 * imported (docs/architecture.md, Bundles).
 */
export * as keys from './item-keys.ts';
export { descendingScore, sortableNumber, timeOrdered } from './item-keys.ts';
