/**
 * HTTP errors carry their status as a property; one place (`respond.ts`) maps them to
 * `{error: {code, message}}`. Anything that is not an HttpError becomes a generic 500
 * that leaks nothing.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, code = 'BadRequest') {
    super(400, code, message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'Missing or invalid credentials') {
    super(401, 'Unauthorized', message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'These credentials do not belong to this customer') {
    super(403, 'Forbidden', message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message: string) {
    super(404, 'NotFound', message);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, 'Conflict', message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message: string) {
    super(413, 'PayloadTooLarge', message);
  }
}
