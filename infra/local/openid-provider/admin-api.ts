import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { emailAddress } from '#schemas/params.ts';
import { BodyTooLarge, readBody, sendEmpty, sendJson } from './http.ts';
import { passwordProblem, type User, type UserDirectory } from './users.ts';

/**
 * The admin API (`/_admin/users`): how the operator CLI and the tests make,
 * find and remove the people who can sign in, as `AdminCreateUser` and its
 * kin do at a Cognito user pool. Every request carries the admin token as a
 * bearer token; JSON in and out, errors as `{message}` like the service's.
 */

export const ADMIN_USERS_PATH = '/_admin/users';

const createUserBody = z.object({ email: emailAddress });
const setPasswordBody = z.object({
  password: z.string().superRefine((password, context) => {
    const problem = passwordProblem(password);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  }),
});

/** A user as the admin API shows one: never the password hash. */
const userView = (user: User) => ({
  sub: user.sub,
  email: user.email,
  createdAt: user.createdAt,
  mustChangePassword: user.mustChangePassword,
});

/** A refused request, answered with its status and `{message}`. */
class AdminRequestRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const methodNotAllowed = (method: string, allowed: string) =>
  new AdminRequestRefused(405, `${method} is not allowed here`, { allow: allowed });

const USER_PATH = /^\/_admin\/users\/([^/]+)$/;
const USER_PASSWORD_PATH = /^\/_admin\/users\/([^/]+)\/password$/;

// Digests of equal length, so the comparison takes the same time whatever the length of the token sent.
const digestOf = (token: string) => createHash('sha256').update(token).digest();

async function jsonBody<Shape extends z.ZodType>(
  request: IncomingMessage,
  shape: Shape,
): Promise<z.output<Shape>> {
  let text: string;
  try {
    text = await readBody(request);
  } catch (error) {
    // The rest of an oversized body is not read: the connection cannot carry another request.
    if (error instanceof BodyTooLarge)
      throw new AdminRequestRefused(413, 'The body is over 16 KiB', { connection: 'close' });
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AdminRequestRefused(400, 'The body is not JSON');
  }
  const parsed = shape.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw new AdminRequestRefused(
    400,
    field ? `Invalid body field '${field}': ${issue.message}` : `Invalid body: ${issue.message}`,
  );
}

/**
 * Answers one request for `/_admin/users` or a path below it. `signOut` ends a deleted user's sessions
 * and revokes what was issued to them.
 */
export function adminApi(users: UserDirectory, adminToken: string, signOut: (sub: string) => void) {
  const adminTokenDigest = digestOf(adminToken);

  const authorized = (request: IncomingMessage) => {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    return scheme?.toLowerCase() === 'bearer' && timingSafeEqual(digestOf(token ?? ''), adminTokenDigest);
  };

  const notFound = (sub: string) => new AdminRequestRefused(404, `User ${sub} not found`);

  async function answer(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: URLSearchParams,
  ) {
    const method = request.method ?? 'GET';
    if (path === ADMIN_USERS_PATH) {
      if (method === 'POST') {
        const { email } = await jsonBody(request, createUserBody);
        const { user, oneTimePassword } = await users.create(email);
        sendJson(response, oneTimePassword === null ? 200 : 201, {
          sub: user.sub,
          email: user.email,
          oneTimePassword,
        });
        return;
      }
      if (method !== 'GET') throw methodNotAllowed(method, 'GET, POST');
      const email = query.get('email');
      if (email === null) {
        sendJson(response, 200, { users: users.list().map(userView) });
        return;
      }
      const user = users.findByEmail(email);
      if (!user) throw new AdminRequestRefused(404, `No user with email ${email}`);
      sendJson(response, 200, userView(user));
      return;
    }
    const userSub = USER_PATH.exec(path)?.[1];
    if (userSub !== undefined) {
      if (method !== 'DELETE') throw methodNotAllowed(method, 'DELETE');
      if (!users.delete(userSub)) throw notFound(userSub);
      signOut(userSub);
      sendEmpty(response, 204);
      return;
    }
    const passwordSub = USER_PASSWORD_PATH.exec(path)?.[1];
    if (passwordSub !== undefined) {
      if (method !== 'POST') throw methodNotAllowed(method, 'POST');
      const { password } = await jsonBody(request, setPasswordBody);
      if (!(await users.setPassword(passwordSub, password))) throw notFound(passwordSub);
      sendEmpty(response, 204);
      return;
    }
    throw new AdminRequestRefused(404, `No admin route ${path}`);
  }

  return async (request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams) => {
    try {
      if (!authorized(request))
        throw new AdminRequestRefused(401, 'The admin API needs the admin bearer token', {
          'www-authenticate': 'Bearer',
        });
      await answer(request, response, path, query);
    } catch (error) {
      if (!(error instanceof AdminRequestRefused)) throw error;
      sendJson(response, error.status, { message: error.message }, error.headers);
    }
  };
}
