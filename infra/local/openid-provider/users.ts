import { randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import * as z from 'zod';
import { readPrivateFile, writePrivateFile } from './private-files.ts';

/**
 * The provider's users: who may sign in, with which password. A user is made
 * by the admin API with a one-time password, which works only to choose a
 * permanent one (as a Cognito user created by an administrator must, at first
 * sign-in). Kept in memory, and in `openid-users.json` when the provider has a
 * data folder.
 */

const scryptHash = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

const HASH_BYTES = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 12;
// Cognito's limit; it also bounds the work one sign-in attempt can ask of scrypt.
const PASSWORD_MAX_LENGTH = 256;

const storedUser = z.object({
  sub: z.uuid(),
  email: z.string(),
  /** `scrypt$<salt>$<hash>`, both base64url. */
  passwordHash: z.string(),
  /** Set while the password is a one-time password, cleared when the user chooses one. */
  mustChangePassword: z.boolean(),
  createdAt: z.iso.datetime(),
});
const storedUsers = z.object({ users: z.array(storedUser) });

export type User = z.infer<typeof storedUser>;

/** What is wrong with a password as a permanent one, or null when it will do. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}

/** Emails are compared as the dashboard compares them: trimmed and lower-cased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptHash(password, salt, HASH_BYTES);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

async function passwordMatches(password: string, passwordHash: string): Promise<boolean> {
  const [, salt = '', expected = ''] = passwordHash.split('$');
  const hash = await scryptHash(password, Buffer.from(salt, 'base64url'), HASH_BYTES);
  const expectedHash = Buffer.from(expected, 'base64url');
  return expectedHash.length === hash.length && timingSafeEqual(hash, expectedHash);
}

/** 16 base64url characters: 96 random bits. */
const newOneTimePassword = (): string => randomBytes(12).toString('base64url');

export class UserDirectory {
  private readonly users = new Map<string, User>();

  private constructor(
    private readonly file: string | undefined,
    // Checked when the email is unknown, so that a wrong email takes as long as a wrong password.
    private readonly decoyHash: string,
  ) {}

  /** The directory kept in `file` (read if it exists), or in memory only. */
  static async open(file: string | undefined): Promise<UserDirectory> {
    const directory = new UserDirectory(file, await hashPassword(randomUUID()));
    const stored = file === undefined ? undefined : readPrivateFile(file);
    if (stored !== undefined)
      for (const user of storedUsers.parse(JSON.parse(stored)).users) directory.users.set(user.sub, user);
    return directory;
  }

  list(): User[] {
    return [...this.users.values()].sort((first, second) => first.email.localeCompare(second.email));
  }

  findBySub(sub: string): User | undefined {
    return this.users.get(sub);
  }

  findByEmail(email: string): User | undefined {
    const normalized = normalizeEmail(email);
    return this.list().find((user) => user.email === normalized);
  }

  /**
   * Makes a user with a one-time password, answered once, here; an existing
   * user of that email is left as is and answered without one.
   */
  async create(email: string): Promise<{ user: User; oneTimePassword: string | null }> {
    const oneTimePassword = newOneTimePassword();
    const passwordHash = await hashPassword(oneTimePassword);
    // Looked up after the hashing, with no await before the insert, so two requests for one email make one user.
    const existing = this.findByEmail(email);
    if (existing) return { user: existing, oneTimePassword: null };
    const user: User = {
      sub: randomUUID(),
      email: normalizeEmail(email),
      passwordHash,
      mustChangePassword: true,
      createdAt: new Date().toISOString(),
    };
    this.users.set(user.sub, user);
    this.save();
    return { user, oneTimePassword };
  }

  delete(sub: string): boolean {
    const deleted = this.users.delete(sub);
    if (deleted) this.save();
    return deleted;
  }

  /** Sets a permanent password (the one-time password, if any, stops working); false when there is no such user. */
  async setPassword(sub: string, password: string): Promise<boolean> {
    const passwordHash = await hashPassword(password);
    const user = this.users.get(sub);
    if (!user) return false;
    this.users.set(sub, { ...user, passwordHash, mustChangePassword: false });
    this.save();
    return true;
  }

  /** The user whose email and current password (one-time or permanent) these are, or null. */
  async authenticate(email: string, password: string): Promise<User | null> {
    const user = this.findByEmail(email);
    const matches = await passwordMatches(password, user?.passwordHash ?? this.decoyHash);
    return user && matches ? user : null;
  }

  private save(): void {
    if (this.file === undefined) return;
    writePrivateFile(this.file, `${JSON.stringify({ users: this.list() }, null, 2)}\n`);
  }
}
