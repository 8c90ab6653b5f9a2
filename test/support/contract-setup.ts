import { afterAll, afterEach, expect } from 'vitest';
import { takeViolations } from './contract.ts';

/**
 * The e2e tier's contract check (contract.ts): a test fails when a response
 * the local stack sent during it does not match the OpenAPI document, and the
 * file fails for responses sent in its hooks after the last test.
 */
const noViolations = () =>
  expect(takeViolations(), 'responses that the OpenAPI document does not describe').toEqual([]);

afterEach(noViolations);
afterAll(noViolations);
