import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { Db } from '../../platform/db/client.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { billingRepository, type WalletEntryRow } from './billing.repository.js';

/**
 * The wallet ledger (micro-USD). Every change is one entry written under a row lock on the user,
 * in the same transaction as the cached totals users.wallet_balance / users.wallet_held, which a
 * CHECK keeps non-negative. Each call carries an idempotency key: repeating it returns the first
 * result and writes nothing. Cloud training uses hold → settle (per epoch) → release.
 */
type Ctx = Pick<AppContext, 'db' | 'clock'>;

export interface HoldResult {
  holdId: string;
  entry: WalletEntryRow;
}

const insufficient = (balance: number, required: number) =>
  new AppError(402, ErrorCode.InsufficientFunds, 'Not enough money in the wallet', { balance, required });

const usd = (micro: number) => `$${(micro / 1_000_000).toFixed(2)}`;

function positiveInt(amount: number, what: string) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw errors.validation(`${what} must be a positive whole number of micro-USD`);
}

/** Runs fn with the user's wallet row locked; returns the already-written entry for a repeated key. */
async function withWallet<T>(
  ctx: Ctx,
  userId: string,
  key: string,
  onRepeat: (entry: WalletEntryRow) => T | Promise<T>,
  fn: (tx: Db, wallet: { balance: number; held: number; plan: string }) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction(async (tx) => {
    const user = await billingRepository.lockUser(tx, userId);
    if (!user) throw errors.notFound('User');
    const seen = await billingRepository.entryByKey(tx, userId, key);
    if (seen) return onRepeat(seen);
    return fn(tx, { balance: user.walletBalance, held: user.walletHeld, plan: user.plan });
  });
}

async function write(
  tx: Db,
  ctx: Ctx,
  wallet: { balance: number; held: number },
  row: Omit<Parameters<typeof billingRepository.insertEntry>[1], 'id' | 'balanceAfter' | 'heldAfter' | 'createdAt'> & { id?: string },
) {
  const balance = wallet.balance + row.amount;
  const held = wallet.held + (row.held ?? 0);
  if (balance < 0) throw insufficient(wallet.balance, -row.amount);
  const entry = await billingRepository.insertEntry(tx, { ...row, id: row.id ?? newId(), balanceAfter: balance, heldAfter: held, createdAt: ctx.clock.now() });
  await billingRepository.setWallet(tx, row.userId, balance, held);
  return entry;
}

/** Money in: a paid top-up (cause: payment id, optional model) or an admin credit (cause: who and why). */
export async function credit(
  ctx: Ctx,
  input: {
    userId: string;
    kind: 'top_up' | 'admin_credit';
    amount: number;
    idempotencyKey: string;
    paymentId?: string | null;
    modelId?: string | null;
    actorId?: string | null;
    reason?: string | null;
  },
): Promise<{ entry: WalletEntryRow; repeated: boolean }> {
  positiveInt(input.amount, 'Amount');
  if (input.kind === 'admin_credit' && !(input.actorId && input.reason)) throw errors.validation('An admin credit names who and why');
  if (input.kind === 'top_up' && !input.paymentId) throw errors.validation('A top-up names its payment');
  return withWallet(
    ctx,
    input.userId,
    input.idempotencyKey,
    (entry) => ({ entry, repeated: true as boolean }),
    async (tx, wallet) => ({
      entry: await write(tx, ctx, wallet, {
        userId: input.userId,
        kind: input.kind,
        amount: input.amount,
        held: 0,
        idempotencyKey: input.idempotencyKey,
        paymentId: input.paymentId ?? null,
        modelId: input.modelId ?? null,
        actorId: input.actorId ?? null,
        reason: input.reason ?? null,
      }),
      repeated: false as boolean,
    }),
  );
}

/**
 * Puts `amount` on hold for a model's run; refused (402) when the balance does not cover it, or is
 * below `minimum` (cloud training's wallet minimum): both read under the wallet's row lock, so
 * parallel holds see each other (ADR 0024).
 */
export async function hold(
  ctx: Ctx,
  input: { userId: string; modelId: string; amount: number; idempotencyKey: string; reason?: string; minimum?: number },
): Promise<HoldResult> {
  positiveInt(input.amount, 'Hold');
  return withWallet(
    ctx,
    input.userId,
    input.idempotencyKey,
    (entry) => ({ holdId: entry.holdId ?? entry.id, entry }),
    async (tx, wallet) => {
      const minimum = input.minimum ?? 0;
      if (wallet.balance < minimum) {
        throw new AppError(402, ErrorCode.InsufficientFunds, `The wallet holds ${usd(wallet.balance)}: at least ${usd(minimum)} is needed to start`, {
          balance: wallet.balance,
          required: minimum,
        });
      }
      if (wallet.balance < input.amount) throw insufficient(wallet.balance, input.amount);
      const id = newId();
      const entry = await write(tx, ctx, wallet, {
        id,
        userId: input.userId,
        kind: 'hold',
        amount: -input.amount,
        held: input.amount,
        idempotencyKey: input.idempotencyKey,
        holdId: id,
        modelId: input.modelId,
        reason: input.reason ?? 'Training estimate',
      });
      await billingRepository.insertRecord(tx, {
        id: newId(),
        userId: input.userId,
        type: 'train',
        modelId: input.modelId,
        holdId: id,
        plan: wallet.plan,
        status: 'held',
        held: input.amount,
        startedAt: entry.createdAt,
      });
      return { holdId: id, entry };
    },
  );
}

async function openHold(ctx: Ctx, holdId: string) {
  const h = await billingRepository.entry(ctx.db, holdId);
  if (!h || h.kind !== 'hold') throw errors.notFound('Hold');
  return h;
}

/** Charges `amount` from a hold (one epoch); never above what is left of the hold. */
export async function settle(ctx: Ctx, input: { holdId: string; amount: number; epoch?: number | null; idempotencyKey: string }): Promise<WalletEntryRow> {
  positiveInt(input.amount, 'Charge');
  const h = await openHold(ctx, input.holdId);
  return withWallet(
    ctx,
    h.userId,
    input.idempotencyKey,
    (entry) => entry,
    async (tx, wallet) => {
      const state = await billingRepository.holdState(tx, h.holdId!);
      if (state.released) throw new AppError(409, ErrorCode.HoldClosed, 'This hold was already released');
      const left = h.held - state.charged;
      if (input.amount > left)
        throw new AppError(409, ErrorCode.SettleExceedsHold, 'The charge is above what is left of the hold', { left, requested: input.amount });
      const entry = await write(tx, ctx, wallet, {
        userId: h.userId,
        kind: 'settle',
        amount: 0,
        held: -input.amount,
        charged: input.amount,
        idempotencyKey: input.idempotencyKey,
        holdId: h.id,
        modelId: h.modelId,
        epoch: input.epoch ?? null,
        reason: input.epoch !== undefined && input.epoch !== null ? `Epoch ${input.epoch}` : 'Charge',
      });
      const record = await billingRepository.recordByHold(tx, h.id);
      if (record) await billingRepository.updateRecord(tx, record.id, { charged: state.charged + input.amount, status: 'running' });
      return entry;
    },
  );
}

/** Gives back what is left of a hold (the run ended or never started). Returns that amount. */
export async function release(
  ctx: Ctx,
  input: { holdId: string; idempotencyKey: string; reason?: string },
): Promise<{ released: number; entry: WalletEntryRow }> {
  const h = await openHold(ctx, input.holdId);
  return withWallet(
    ctx,
    h.userId,
    input.idempotencyKey,
    (entry) => ({ released: entry.amount, entry }),
    async (tx, wallet) => {
      const state = await billingRepository.holdState(tx, h.id);
      if (state.released) throw new AppError(409, ErrorCode.HoldClosed, 'This hold was already released');
      const rest = h.held - state.charged;
      const entry = await write(tx, ctx, wallet, {
        userId: h.userId,
        kind: 'release',
        amount: rest,
        held: -rest,
        idempotencyKey: input.idempotencyKey,
        holdId: h.id,
        modelId: h.modelId,
        reason: input.reason ?? (state.charged === 0 ? 'Run never charged: full refund' : 'Rest of the hold returned'),
      });
      const record = await billingRepository.recordByHold(tx, h.id);
      if (record) await billingRepository.updateRecord(tx, record.id, { released: rest, status: 'settled', endedAt: ctx.clock.now() });
      return { released: rest, entry };
    },
  );
}

/** Balance recomputed from the entries (the cached totals must always equal it). */
export const ledgerSums = (ctx: Pick<AppContext, 'db'>, userId: string) => billingRepository.sums(ctx.db, userId);
