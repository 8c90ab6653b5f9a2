import { describeProblems, type InputProblem } from '#schemas/issues.ts';

/**
 * Errors of the HTTP edge itself (a body that is no JSON, a missing
 * identity, a body too large): the endpoint wrapper (`endpoint.ts`) answers
 * them with their status and `{message}` (an endpoint's 4xx adds `errors`, the
 * request values at fault, and every error of an endpoint its `request_id`),
 * as it answers a domain error (`#domain/errors.ts`) through its one mapping
 * table. Any other error becomes a 500 that says nothing about internals.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The request values at fault, each with its path (`body.url`); empty when the error names none. */
    readonly problems: readonly InputProblem[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is malformed or fails validation. */
export class BadRequestError extends HttpError {
  constructor(message: string, problems: readonly InputProblem[] = []) {
    super(400, message, {}, problems);
  }
}

/**
 * 400: the request's values fail validation, with every problem found: the
 * message joins theirs (the first MAX_LISTED_PROBLEMS, and how many more),
 * `problems` lists the same ones.
 */
export class InvalidRequestError extends BadRequestError {
  constructor(problems: readonly InputProblem[]) {
    const { message, listed } = describeProblems(problems);
    super(message, listed);
  }
}

/** 401: missing or invalid credentials. */
export class UnauthorizedError extends HttpError {
  constructor(message = 'Unauthorized') {
    super(401, message);
  }
}

/** 404: the resource does not exist or belongs to another organization. */
export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 413: the request body is larger than the service accepts. */
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body too large') {
    super(413, message);
  }
}
