import { randomUUID } from 'node:crypto';
import { WRITER_SLOTS } from '#store/counter-shards.ts';
import { type WriterSlotStore, writerSlots } from '#store/writer-slots.ts';

/**
 * A process's hold on one writer slot (docs/scaling.md, "Writers with shards
 * of their own"). Events that land on the same counter shard at the same time
 * conflict on DynamoDB (one transaction is cancelled and retried); a consumer
 * that writes only the shards of a slot nobody else holds never meets another
 * consumer there. So each provider events consumer claims a free slot, keeps
 * it while it works, and lets it lapse when it stops: a claim lasts
 * CLAIM_MS, is extended once less than half of it is left, and a frozen or
 * ended process's claim is free again when it lapses.
 *
 * Only contention depends on it: whichever shard a delta goes to, reads add
 * them all up. So a writer without a slot (all are held, or the table refused
 * the claim) writes the shards its assignments hash to, and tries again a
 * while later; and a clock that drifts, or a claim taken over while its holder
 * was frozen, costs retries, never a count.
 */

/** How long a claim lasts; it is extended when less than half is left. */
const CLAIM_MS = 30_000;
/** A claim is treated as lapsed this long before its end: another process's clock may run ahead. */
const CLOCK_MARGIN_MS = 2_000;
/** After finding no free slot, how long a writer goes without before it looks again. */
const RETRY_AFTER_MS = 5_000;

export interface WriterSlotLeaseOptions {
  store?: WriterSlotStore;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** In [0, 1): the order free slots are tried in, so writers starting together spread. */
  random?: () => number;
}

export class WriterSlotLease {
  /** Names this process's claims; a new lease is a new holder. */
  readonly holder = randomUUID();
  private held: { slot: number; expiresAt: number } | null = null;
  private lookAgainAt = 0;
  /** One renewal or claim at a time: concurrent callers share it. */
  private pending: Promise<number | null> | null = null;
  private readonly store: WriterSlotStore;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(options: WriterSlotLeaseOptions = {}) {
    this.store = options.store ?? writerSlots;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /**
   * The slot this process writes counters with, claimed or extended first
   * when needed; null while it holds none.
   */
  async slot(): Promise<number | null> {
    const now = this.now();
    if (this.held && this.held.expiresAt - now > CLAIM_MS / 2) return this.held.slot;
    if (!this.held && now < this.lookAgainAt) return null;
    this.pending ??= this.renew(now).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async renew(now: number): Promise<number | null> {
    try {
      // Extending is conditioned on still being the holder: a claim taken over while frozen is lost here.
      if (this.held && (await this.store.extend(this.held.slot, this.holder, now + CLAIM_MS))) {
        this.held = { slot: this.held.slot, expiresAt: now + CLAIM_MS - CLOCK_MARGIN_MS };
        return this.held.slot;
      }
      this.held = null;
      const claims = new Map((await this.store.claims()).map((claim) => [claim.slot, claim]));
      const free = Array.from({ length: WRITER_SLOTS }, (_, slot) => slot).filter((slot) => {
        const claim = claims.get(slot);
        return !claim || claim.expiresAt <= now;
      });
      // Writers starting together try the free slots in different orders; one that loses a slot tries the next.
      for (const slot of this.shuffled(free)) {
        if (await this.store.claim(slot, this.holder, now, now + CLAIM_MS)) {
          this.held = { slot, expiresAt: now + CLAIM_MS - CLOCK_MARGIN_MS };
          return slot;
        }
      }
    } catch {
      // The table refused or failed: the writer goes on with hashed shards (see above).
      this.held = null;
    }
    this.lookAgainAt = now + RETRY_AFTER_MS;
    return null;
  }

  private shuffled(slots: number[]): number[] {
    for (let index = slots.length - 1; index > 0; index--) {
      const other = Math.floor(this.random() * (index + 1));
      [slots[index], slots[other]] = [slots[other]!, slots[index]!];
    }
    return slots;
  }
}
