import { afterAll, afterEach, expect } from 'vitest';
import { takeViolations } from './contract.ts';
import { ungrantedTableActions } from './table-actions.ts';

/**
 * The e2e tier's standing checks. The contract (contract.ts): a test fails when
 * a response the local stack sent during it does not match the OpenAPI
 * document, and the file fails for responses sent in its hooks after the last
 * test. The grants (table-actions.ts): the file fails when a route's function
 * issued a table action its manifest entry does not list.
 */
const noViolations = () =>
  expect(takeViolations(), 'responses that the OpenAPI document does not describe').toEqual([]);

afterEach(noViolations);
afterAll(noViolations);

// Every table action a route's function used is one the stack grants it (the manifest's `table`).
afterAll(() =>
  expect(ungrantedTableActions(), 'table actions used beyond the route’s grants (routes.ts)').toEqual([]),
);
