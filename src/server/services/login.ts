/**
 * Phone login: a 6-digit one-time code (stored hashed, 5 minutes, 5 tries), then a ticket.
 * The first login creates the user.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '#shared/errors.ts';
import { LOGIN_CODE_LENGTH, LOGIN_CODE_MAX_TRIES, LOGIN_CODE_RESEND_S, LOGIN_CODE_TTL_S } from '#shared/constants.ts';
import type { LoginUser } from '#shared/schemas.ts';
import type { Db } from '../db/client.ts';
import { images, loginCodes, moderators, rateLimits, users } from '../db/schema.ts';
import { BusinessError } from '../errors.ts';
import { avatarSvg } from './avatars.ts';
import { enforceRateLimit } from './limits/window-counters.ts';
import { issueTicket, type DeviceKind, type TicketVia } from './sessions.ts';
import { newDefaultNick, nickInUse } from './users.ts';

/**
 * Delivers login codes (code-senders.ts chooses one by the configuration): rejects when the code
 * could not be delivered.
 */
export interface CodeSender {
  send(cellphone: string, code: string, expiresAt: Date): Promise<void>;
}

export function logCodeSender(log: { info(message: string): void }): CodeSender {
  return {
    async send(cellphone, code) {
      log.info(`login code for ${cellphone}: ${code}`);
    },
  };
}

/** The rate-limit key of a phone's resend window. */
const phoneWindowKey = (cellphone: string) => `login-code:phone:${cellphone}`;

const hashCode = (cellphone: string, code: string) => createHash('sha256').update(`${cellphone}:${code}`).digest();

export async function requestLoginCode(
  db: Db,
  sender: CodeSender,
  params: { cellphone: string; ip: string; resendSeconds?: number; codesPerAddressPerHour: number },
): Promise<{ expires_in: number }> {
  await enforceRateLimit(db, phoneWindowKey(params.cellphone), params.resendSeconds ?? LOGIN_CODE_RESEND_S, 1);
  // Whatever the phones (LOGIN_CODES_PER_ADDRESS_PER_HOUR): one address cannot send SMS to a list of numbers.
  await enforceRateLimit(db, `login-code:ip:${params.ip}`, 3600, params.codesPerAddressPerHour);

  const code = String(randomInt(0, 10 ** LOGIN_CODE_LENGTH)).padStart(LOGIN_CODE_LENGTH, '0');
  const expiresAt = new Date(Date.now() + LOGIN_CODE_TTL_S * 1000);
  await db.insert(loginCodes).values({
    cellphone: params.cellphone,
    codeHash: hashCode(params.cellphone, code).toString('hex'),
    ip: params.ip,
    expiresAt,
  });
  try {
    await sender.send(params.cellphone, code, expiresAt);
  } catch {
    // The phone got nothing to wait for: it may ask again at once. The code stays valid, in case
    // the gateway sent it after all and only its answer was lost.
    await db.delete(rateLimits).where(eq(rateLimits.key, phoneWindowKey(params.cellphone)));
    throw new BusinessError(ErrorCode.CodeNotSent);
  }
  return { expires_in: LOGIN_CODE_TTL_S };
}

/**
 * Checks the newest unused code of the phone. The try is counted before the code is compared,
 * in one atomic update: of any number of guesses arriving together (on any API process) each
 * is counted, and only the first LOGIN_CODE_MAX_TRIES are compared; later ones, the right code
 * included, are -3005 until a new code is asked for. An exhausted code stays the newest, so an
 * older unused code of the phone never gets tries of its own.
 */
export async function verifyLoginCode(db: Db, cellphone: string, code: string): Promise<void> {
  if (!code.trim()) throw new BusinessError(ErrorCode.CodeEmpty);
  const newest = sql`(select ${loginCodes.id} from ${loginCodes}
    where ${loginCodes.cellphone} = ${cellphone} and ${loginCodes.usedAt} is null order by ${loginCodes.id} desc limit 1)`;
  const [row] = await db
    .update(loginCodes)
    // tries is a smallint: it stops counting where the column ends.
    .set({ tries: sql`least(${loginCodes.tries} + 1, 32767)` })
    .where(and(eq(loginCodes.id, newest), isNull(loginCodes.usedAt)))
    .returning({ id: loginCodes.id, codeHash: loginCodes.codeHash, tries: loginCodes.tries, expiresAt: loginCodes.expiresAt });
  if (!row || row.expiresAt.getTime() <= Date.now() || row.tries > LOGIN_CODE_MAX_TRIES) {
    throw new BusinessError(ErrorCode.CodeExpired);
  }
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = hashCode(cellphone, code.trim());
  if (!timingSafeEqual(expected, given)) throw new BusinessError(ErrorCode.CodeWrong);
  // Only one request may spend a code, even when two arrive together.
  const spent = await db
    .update(loginCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(loginCodes.id, row.id), isNull(loginCodes.usedAt)))
    .returning({ id: loginCodes.id });
  if (spent.length === 0) throw new BusinessError(ErrorCode.CodeExpired);
}

export function maskCellphone(cellphone: string | null): string {
  if (!cellphone) return '';
  return cellphone.length >= 11 ? `${cellphone.slice(0, 3)}****${cellphone.slice(-4)}` : '****';
}

export async function loginUserById(db: Db, userId: number): Promise<LoginUser> {
  const [row] = await db
    .select({ user: users, moderator: moderators.userId })
    .from(users)
    .leftJoin(moderators, eq(moderators.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new BusinessError(ErrorCode.NotLoggedIn);
  const { user } = row;
  return {
    uid: user.id,
    ucode: user.ucode,
    nick: user.nick,
    avatar: user.avatar,
    cellphone: maskCellphone(user.cellphone),
    ctime: user.createdAt.getTime(),
    student: user.isStudent ? 1 : 0,
    usertype: user.usertype,
    is_moderator: row.moderator !== null,
  };
}

async function findOrCreateUser(db: Db, cellphone: string): Promise<number> {
  for (;;) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.cellphone, cellphone)).limit(1);
    if (existing) return existing.id;
    const nick = await newDefaultNick((candidate) => nickInUse(db, candidate));
    const ucode = randomBytes(9).toString('base64url');
    const avatarId = `avatar-${randomBytes(8).toString('hex')}`;
    // The avatar's colour comes from the ucode: nothing public derives from the phone number.
    const svg = avatarSvg(nick, ucode);
    await db.insert(images).values({ id: avatarId, mime: 'image/svg+xml', width: 128, height: 128, bytes: Buffer.from(svg) });
    const [created] = await db
      .insert(users)
      .values({ ucode, nick, avatar: `/img/${avatarId}`, cellphone })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (created) return created.id;
    // A concurrent first login of the same phone created it a moment ago (found above on the
    // next turn), or another took the nickname between the check and the insert (drawn again).
  }
}

export async function login(
  db: Db,
  params: { cellphone: string; code: string; deviceKind: DeviceKind; deviceId?: string | undefined; via: TicketVia },
): Promise<LoginUser & { ticket: string; device_id: string }> {
  await verifyLoginCode(db, params.cellphone, params.code);
  const userId = await findOrCreateUser(db, params.cellphone);
  const deviceId = params.deviceId ?? randomBytes(16).toString('hex');
  const { ticket } = await issueTicket(db, { userId, deviceKind: params.deviceKind, deviceId, via: params.via });
  return { ...(await loginUserById(db, userId)), ticket, device_id: deviceId };
}
