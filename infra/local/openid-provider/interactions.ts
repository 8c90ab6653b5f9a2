import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type Interaction, type Provider } from 'oidc-provider';
import { BodyTooLarge, readBody } from './http.ts';
import { problemPage, sendPage, setPasswordPage, signInPage } from './pages.ts';
import { INTERACTION_TTL_SECONDS, SCOPES } from './settings.ts';
import { passwordProblem, type User, type UserDirectory } from './users.ts';

/**
 * The provider's interaction pages (`/interaction/{uid}`), where
 * oidc-provider sends the browser when an authorization request needs the
 * person: to sign in (email and password; after a one-time password, a new
 * one), and to consent, which is given at once since the dashboard is the
 * provider's own, first-party client.
 */

const INTERACTION_PATH = /^\/interaction\/([^/]+)(?:\/(login|password))?$/;

// The same words whichever of the two was wrong, so the page tells no one which emails have an account.
const WRONG_CREDENTIALS = 'Incorrect email or password';

/** The posted form; one over the body limit reads as empty, and is refused as a form without its fields. */
async function formFields(request: IncomingMessage): Promise<URLSearchParams> {
  try {
    return new URLSearchParams(await readBody(request));
  } catch (error) {
    if (error instanceof BodyTooLarge) return new URLSearchParams();
    throw error;
  }
}

export function interactionPages(
  provider: Provider,
  users: UserDirectory,
  formTargetOrigins: readonly string[],
) {
  /**
   * The sign-ins whose one-time password was accepted and that wait for the new password, by interaction
   * uid: only the browser holding that interaction's cookie reaches them.
   */
  const awaitingNewPassword = new Map<string, { sub: string; expiresAt: number }>();

  const userAwaitingNewPassword = (uid: string): User | undefined => {
    const awaiting = awaitingNewPassword.get(uid);
    if (!awaiting || awaiting.expiresAt <= Date.now()) return undefined;
    // A user deleted, or given a password by the admin API, in the meantime is no longer waiting.
    const user = users.findBySub(awaiting.sub);
    return user?.mustChangePassword ? user : undefined;
  };

  const awaitNewPassword = (uid: string, user: User) => {
    const now = Date.now();
    for (const [waitingUid, { expiresAt }] of awaitingNewPassword)
      if (expiresAt <= now) awaitingNewPassword.delete(waitingUid);
    awaitingNewPassword.set(uid, { sub: user.sub, expiresAt: now + INTERACTION_TTL_SECONDS * 1000 });
  };

  const page = (response: ServerResponse, status: number, html: string) =>
    sendPage(response, status, html, formTargetOrigins);

  const showStep = (response: ServerResponse, uid: string) =>
    response.writeHead(303, { location: `/interaction/${uid}`, 'cache-control': 'no-store' }).end();

  async function show(request: IncomingMessage, response: ServerResponse, interaction: Interaction) {
    const { uid, prompt } = interaction;
    if (prompt.name === 'login') {
      const user = userAwaitingNewPassword(uid);
      if (user)
        page(response, 200, setPasswordPage({ action: `/interaction/${uid}/password`, email: user.email }));
      else page(response, 200, signInPage({ action: `/interaction/${uid}/login` }));
      return;
    }
    if (prompt.name === 'consent') {
      await consent(request, response, interaction);
      return;
    }
    page(
      response,
      400,
      problemPage({
        title: 'Sign-in could not continue',
        message: `The sign-in asks for a step this provider does not offer (${prompt.name}).`,
      }),
    );
  }

  /** Grants the client every scope for the signed-in person, and lets the authorization go on. */
  async function consent(request: IncomingMessage, response: ServerResponse, interaction: Interaction) {
    const accountId = interaction.session?.accountId;
    if (accountId === undefined)
      throw new Error(`Interaction ${interaction.uid} asks for consent without a login`);
    const grant =
      (interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)) ??
      new provider.Grant({ accountId, clientId: interaction.params.client_id });
    grant.addOIDCScope(SCOPES.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(
      request,
      response,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }

  async function signIn(request: IncomingMessage, response: ServerResponse, uid: string) {
    const form = await formFields(request);
    const email = form.get('email') ?? '';
    const user = await users.authenticate(email, form.get('password') ?? '');
    if (!user) {
      page(
        response,
        401,
        signInPage({ action: `/interaction/${uid}/login`, email, error: WRONG_CREDENTIALS }),
      );
      return;
    }
    if (user.mustChangePassword) {
      awaitNewPassword(uid, user);
      page(response, 200, setPasswordPage({ action: `/interaction/${uid}/password`, email: user.email }));
      return;
    }
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: user.sub } },
      { mergeWithLastSubmission: false },
    );
  }

  async function newPasswordProblem(user: User, newPassword: string, confirmation: string) {
    if (newPassword !== confirmation) return 'The new passwords do not match';
    const problem = passwordProblem(newPassword);
    if (problem !== null) return `The new password ${problem}`;
    if (await users.authenticate(user.email, newPassword))
      return 'The new password must differ from the one-time password';
    return null;
  }

  async function setPassword(request: IncomingMessage, response: ServerResponse, uid: string) {
    const user = userAwaitingNewPassword(uid);
    if (!user) {
      awaitingNewPassword.delete(uid);
      showStep(response, uid);
      return;
    }
    const form = await formFields(request);
    const newPassword = form.get('new_password') ?? '';
    const problem = await newPasswordProblem(user, newPassword, form.get('confirm_password') ?? '');
    if (problem !== null) {
      page(
        response,
        400,
        setPasswordPage({ action: `/interaction/${uid}/password`, email: user.email, error: problem }),
      );
      return;
    }
    await users.setPassword(user.sub, newPassword);
    awaitingNewPassword.delete(uid);
    await provider.interactionFinished(
      request,
      response,
      { login: { accountId: user.sub } },
      { mergeWithLastSubmission: false },
    );
  }

  /** Answers a request for `/interaction/…`. */
  return async (request: IncomingMessage, response: ServerResponse, path: string) => {
    const match = INTERACTION_PATH.exec(path);
    if (!match) {
      page(response, 404, problemPage({ title: 'Not found', message: 'There is no such page.' }));
      return;
    }
    const [, uid = '', step] = match;
    const interaction = await provider.interactionDetails(request, response).catch((error: unknown) => {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    });
    // No interaction cookie, an expired interaction, or the cookie of another one.
    if (interaction === undefined || interaction.uid !== uid) {
      page(
        response,
        400,
        problemPage({
          title: 'Sign-in expired',
          message: 'This sign-in has expired, or was started in another browser.',
          detail: 'Go back to the application and sign in again.',
        }),
      );
      return;
    }
    const method = request.method ?? 'GET';
    if (step === undefined && method === 'GET') await show(request, response, interaction);
    else if (step !== undefined && method === 'POST' && interaction.prompt.name === 'login') {
      if (step === 'login') await signIn(request, response, uid);
      else await setPassword(request, response, uid);
    } else showStep(response, uid);
  };
}
