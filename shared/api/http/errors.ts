/**
 * Errors of the HTTP edge itself (a body that is no JSON, a missing
 * identity, a body too large): the endpoint wrapper (`endpoint.ts`) answers
 * them with their status and `{message}`, as it answers a domain error
 * (`#domain/errors.ts`) through its one mapping table. Any other error
 * becomes a 500 that says nothing about internals.
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

/** 413: the request body is larger than the service accepts. */
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body too large') {
    super(413, message);
  }
}
