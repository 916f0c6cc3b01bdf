// zod validation that answers 1002 and names the first failing field.
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { Code } from './envelope.ts';
import { ApiError, invalidField } from './errors.ts';

type Issue = { path: PropertyKey[] };

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The ApiError for a failed parse: "{field} cannot be empty" when absent, else "{field} is invalid". */
export function validationError(issues: readonly Issue[], input: unknown): ApiError {
  const issue = issues[0];
  if (!issue || issue.path.length === 0) return new ApiError(Code.validation, 'bodyInvalid');
  const field = issue.path.map(String).join('.');
  const value = valueAt(input, issue.path);
  const missing = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  return invalidField(field, missing);
}

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(result.error.issues, result.data);
  });
}
