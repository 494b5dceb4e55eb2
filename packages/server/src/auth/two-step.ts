import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import { serverMessages, texts } from '@hello/contract';
import type { Database, UserRow } from '../db/schema.js';
import { commitUnlessNull } from '../db/commit-unless-null.js';
import { httpErrors } from '../http-errors.js';
import { createBodySeal } from '../mail/body-seal.js';
import { useLiveSession } from '../repositories/sessions.js';
import { requireAsChecked } from './as-checked.js';
import type { Jwt } from './jwt.js';

type Db = Kysely<Database>;

/**
 * A code as read without the database: a TOTP code valid for the secret now (its time step), or a
 * recovery code's hash. Whether the step is new, or the hash one of the user's unused codes, only
 * the database says (useParsed).
 */
export type ParsedCode = { kind: 'totp'; step: number } | { kind: 'recovery'; codeHash: string };

/** RFC 6238 as every authenticator app does it: SHA-1, 6 digits, 30-second steps; ±1 step accepted. */
const PERIOD_SECONDS = 30;
const CODE_SHAPE = /^\d{6}$/;
/** How long the password step of a login stays good for its code step. */
export const MFA_TOKEN_SECONDS = 300;
const RECOVERY_CODE_COUNT = 10;
/** Ten base32 letters (50 bits) each, shown as `abcde-fghij`. */
const RECOVERY_CODE_SHAPE = /^[a-z2-7]{10}$/;

/** The refusal of a change whose password was checked against a hash that is no longer the account's. */
const wrongPassword = () => httpErrors.fields({ password: [serverMessages.wrongPassword] });

const hashRecoveryCode = (code: string) => createHash('sha256').update(code).digest('hex');
/** A recovery code as typed: any letter case, spaces and dashes ignored. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const code = [...randomBytes(RECOVERY_CODE_COUNT)].map((byte) => alphabet[byte & 31]).join('');
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * Two-step sign-in (docs/api.md, "Two-step sign-in"). The TOTP secret is stored sealed (AES-256-GCM
 * under a key of its own, mail/body-seal.ts) and recovery codes as SHA-256 hashes. A code is accepted
 * once: the time step of the last accepted code is stored, and a code of that step or an earlier one
 * is refused, by a conditional update that only one of several instances can win.
 */
export function createTwoStepService(db: Db, jwt: Jwt, secretKey: string) {
  const seal = createBodySeal(secretKey, 'totp-secret');
  const bindingKey = createHmac('sha256', secretKey).update('hello-all/mfa-token-binding/v1').digest();
  /** The account's password hash and sealed secret as they are now, in 128 bits (see mfaToken). */
  const bindingOf = (user: UserRow) =>
    createHmac('sha256', bindingKey)
      .update(`${user.password_hash}\0${user.totp_secret ?? ''}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');

  /** The time step of `code` if it is valid for `secret` now (±1 step); undefined otherwise. */
  async function stepOf(secret: string, code: string): Promise<number | undefined> {
    if (!CODE_SHAPE.test(code)) return undefined;
    const epoch = Math.floor(Date.now() / 1000);
    const result = await verify({ secret, token: code, epoch, epochTolerance: PERIOD_SECONDS });
    if (!result.valid) return undefined;
    return Math.floor(epoch / PERIOD_SECONDS) + (result.delta ?? 0);
  }

  /** Takes `step` as the last accepted one; false when it, or a later one, was accepted already. */
  async function acceptStep(executor: Db, userId: number, step: number): Promise<boolean> {
    const result = await executor
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Uses the user's recovery code of this hash up; false when there is none unused. */
  async function useRecoveryCode(executor: Db, userId: number, codeHash: string): Promise<boolean> {
    const result = await executor
      .updateTable('totp_recovery_codes')
      .set({ used_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function recoveryCodesLeft(executor: Db, userId: number): Promise<number> {
    const left = await executor
      .selectFrom('totp_recovery_codes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(left?.n ?? 0);
  }

  /** What `code` is for the user's secret (see ParsedCode); null when it can be no code of theirs. */
  async function parseCode(user: UserRow, code: string): Promise<ParsedCode | null> {
    if (!user.totp_secret) return null;
    const step = await stepOf(seal.open(user.totp_secret), code.trim());
    if (step !== undefined) return { kind: 'totp', step };
    const normalized = normalizeRecoveryCode(code);
    return RECOVERY_CODE_SHAPE.test(normalized) ? { kind: 'recovery', codeHash: hashRecoveryCode(normalized) } : null;
  }

  /** Uses a parsed code up: its time step taken, or the recovery code marked used; false when it cannot be. */
  const useParsed = (executor: Db, userId: number, parsed: ParsedCode): Promise<boolean> =>
    parsed.kind === 'totp'
      ? acceptStep(executor, userId, parsed.step)
      : useRecoveryCode(executor, userId, parsed.codeHash);

  return {
    async status(userId: number): Promise<{ enabled: boolean; recovery_codes_left: number }> {
      const user = await db.selectFrom('users').select('totp_secret').where('id', '=', userId).executeTakeFirst();
      const enabled = Boolean(user?.totp_secret);
      return { enabled, recovery_codes_left: enabled ? await recoveryCodesLeft(db, userId) : 0 };
    },

    /**
     * A new secret, kept as pending until a first code confirms it; with its otpauth:// URI. Not
     * stored when, since `user` was read and the password checked, the caller's session ended (401)
     * or the password or address changed (400, as a wrong password): as-checked.ts.
     */
    async setUp(user: UserRow, sessionId: string): Promise<{ secret: string; otpauth_url: string }> {
      const secret = generateSecret();
      await db.transaction().execute(async (trx) => {
        await requireAsChecked(trx, user, sessionId, wrongPassword);
        await trx
          .updateTable('users')
          .set({ totp_pending_secret: seal.seal(secret) })
          .where('id', '=', user.id)
          .execute();
      });
      return { secret, otpauth_url: generateURI({ issuer: texts.header, label: user.email, secret }) };
    },

    /**
     * Turns two-step sign-in on with a first code of the pending secret: the secret becomes the user's,
     * ten new recovery codes replace any old ones, and `alsoInTransaction` runs (ending the other
     * sessions, queuing the notice) in the same transaction. The codes, or why not; 401 (thrown) when
     * the caller's session (`sessionId`) ended meanwhile (a logout, a reset), and nothing changes.
     */
    async confirm(
      user: UserRow,
      code: string,
      sessionId: string,
      alsoInTransaction: (trx: Db) => Promise<void>,
    ): Promise<string[] | 'not-set-up' | 'invalid'> {
      if (!user.totp_pending_secret) return 'not-set-up';
      const step = await stepOf(seal.open(user.totp_pending_secret), code.trim());
      if (step === undefined) return 'invalid';
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      const done = await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('users')
          .set({
            totp_secret: user.totp_pending_secret,
            totp_pending_secret: null,
            totp_enabled_at: new Date().toISOString(),
            totp_last_step: step,
          })
          .where('id', '=', user.id)
          .where('totp_pending_secret', '=', user.totp_pending_secret)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false; // set up again, or confirmed, meanwhile
        // The row first (just written), then the session's, as a reset and a password change take them.
        if (!(await useLiveSession(trx, sessionId))) throw httpErrors.tokenNotValid('Bearer');
        await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', user.id).execute();
        await trx
          .insertInto('totp_recovery_codes')
          .values(codes.map((c) => ({ user_id: user.id, code_hash: hashRecoveryCode(normalizeRecoveryCode(c)) })))
          .execute();
        await alsoInTransaction(trx);
        return true;
      });
      return done ? codes : 'invalid';
    },

    /**
     * A code is used in two halves: `parseCode` before the transaction that uses it (a login's, that
     * starts the session; turnOff's), `useParsed` in it, so that nothing but the database is awaited
     * inside a transaction.
     */
    parseCode,
    useParsed,
    /** The user's unused recovery codes, counted in `executor` (a transaction that used one). */
    recoveryCodesLeft,

    /**
     * Turns it off with a code of the user's (parseCode): the secret, the pending one and the recovery
     * codes go, and `alsoInTransaction` runs, in one transaction. False, and nothing changed, when the
     * code cannot be used or the secret changed meanwhile; thrown, and nothing changed, when since
     * `user` was read and the password checked the caller's session ended (401) or the password or
     * address changed (400, as a wrong password): as-checked.ts. The user's row is locked and
     * written before any recovery code's, the order an account deletion takes them in: the other
     * order deadlocks with one on PostgreSQL.
     */
    async turnOff(
      user: UserRow,
      parsed: ParsedCode,
      sessionId: string,
      alsoInTransaction: (trx: Db) => Promise<void>,
    ): Promise<boolean> {
      const secret = user.totp_secret;
      if (!secret) return false;
      const done = await commitUnlessNull(db, async (trx) => {
        await requireAsChecked(trx, user, sessionId, wrongPassword);
        const off = await trx
          .updateTable('users')
          .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null })
          .where('id', '=', user.id)
          .where('totp_secret', '=', secret)
          .executeTakeFirst();
        if (Number(off.numUpdatedRows) !== 1 || !(await useParsed(trx, user.id, parsed))) return null;
        await trx.updateTable('users').set({ totp_last_step: null }).where('id', '=', user.id).execute();
        await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', user.id).execute();
        await alsoInTransaction(trx);
        return true;
      });
      return done === true;
    },

    /**
     * The token a login with the right password gets instead of tokens, good for MFA_TOKEN_SECONDS and
     * one sign-in: its session id is that of the session its code step starts, which can start only
     * once (routes/api/v1/token/index.ts), and it is bound to the account's password hash and secret as
     * they are now, so a new password, or two-step sign-in turned off or set up again, leaves it worth
     * nothing.
     */
    mfaToken(user: UserRow): string {
      return jwt.sign(
        { userId: user.id, sessionId: randomUUID(), type: 'mfa', binding: bindingOf(user) },
        new Date(Date.now() + MFA_TOKEN_SECONDS * 1000),
      );
    },
    /** The account of a live mfa token and the session its code step may start, or null. */
    mfaClaims(token: string): { userId: number; sessionId: string; binding: string } | null {
      const claims = jwt.verify(token, 'mfa');
      return claims?.binding === undefined ? null : { ...claims, binding: claims.binding };
    },
    /** True when the account's password and secret are still those the mfa token was given for. */
    mfaTokenFits(user: UserRow, binding: string): boolean {
      const expected = Buffer.from(bindingOf(user), 'latin1');
      const given = Buffer.from(binding, 'latin1');
      return user.totp_secret !== null && given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type TwoStepService = ReturnType<typeof createTwoStepService>;
