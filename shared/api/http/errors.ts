/**
 * The typed error hierarchy. Domain code throws these; one mapper
 * (`shared/api/http/endpoint.ts`) turns them into `{message}` responses. Any other
 * error becomes a 500 that says nothing about internals.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is malformed or fails validation. */
export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
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

/** 409: the request conflicts with the current state. */
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 413: the request body is larger than the service accepts. */
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body too large') {
    super(413, message);
  }
}

/** 422: well-formed but semantically refused (e.g. an idempotency key reused with another body). */
export class UnprocessableError extends HttpError {
  constructor(message: string) {
    super(422, message);
  }
}
