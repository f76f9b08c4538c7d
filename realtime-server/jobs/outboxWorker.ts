import nodemailer, { type Transporter } from 'nodemailer';
import { outboxRepository } from '../../db/repositories/outboxRepository';
import type { ServiceContext } from '../services/context';
import { asBackground } from '../services/backgroundWork';

const MAX_ATTEMPTS = 8;
const POLL_MS = 1000;
/**
 * How long stop() waits for the pass after aborting the send in progress (an aborted message
 * goes straight back to the queue; one still left `sending` is requeued at the next start).
 */
const STOP_WAIT_MS = 3000;
/**
 * Bounds on one SMTP conversation, so that a silent server cannot hold the whole outbox
 * (nodemailer's defaults are 2 min to connect, 30 s for the greeting, 10 min of socket
 * silence). Query parameters of SMTP_URL (e.g. `?greetingTimeout=5000`) take precedence.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/** A link with the value of its `t=` token replaced by `…` (the link's path and the rest stay readable). */
export const redactLinkToken = (link: string) => link.replace(/([?&]t=)[^&#]*/g, '$1…');
const backoffMs = (attempt: number) => Math.min(10 * 60_000, 2000 * 2 ** (attempt - 1));
/**
 * A claimed message is this worker's for LEASE_MS (several nodes: another takes it over only
 * after that, e.g. when this node died mid-send). A send is cut off after SEND_DEADLINE_MS,
 * well inside the lease, so a live worker never loses a message it is still sending.
 */
export const LEASE_MS = 2 * 60_000;
const SEND_DEADLINE_MS = 60_000;

export interface OutboxWorkerOptions {
  /** Names this worker in `outbox.claimed_by` (default: the node's id). */
  workerId?: string;
  leaseMs?: number;
  sendDeadlineMs?: number;
  pollMs?: number;
}

/**
 * Sends queued mail through SMTP_URL with retries and exponential backoff. Without SMTP_URL
 * mail stays queued (admins read it in the outbox) and is logged once, its link tokens redacted.
 */
export function startOutboxWorker(ctx: ServiceContext, transport?: Transporter, opts: OutboxWorkerOptions = {}) {
  const workerId = opts.workerId ?? ctx.nodeId;
  const lease = { workerId, leaseMs: opts.leaseMs ?? LEASE_MS };
  const sendDeadlineMs = Math.min(opts.sendDeadlineMs ?? SEND_DEADLINE_MS, lease.leaseMs / 2);
  const mailer = transport ?? (ctx.config.smtpUrl ? nodemailer.createTransport({ url: ctx.config.smtpUrl, ...SMTP_TIMEOUTS }) : null);
  let running = false;
  let again = false;
  let stopped = false;
  const aborter = new AbortController();
  /**
   * The newest message already logged. Mail queued before this start was logged by the run that
   * queued it: it is said once as a count, not again line by line.
   */
  let loggedUpTo: number | undefined;

  async function logUnsent() {
    if (loggedUpTo === undefined) {
      loggedUpTo = await outboxRepository.latestId(ctx.db);
      const waiting = await outboxRepository.countByStatus(ctx.db, 'queued');
      if (waiting > 0) {
        ctx.log.info(
          { queued: waiting },
          `${waiting} e-mail(s) queued before this start still wait (no SMTP_URL set): an admin reads them in GET /api/outbox or the admin Outbox screen`,
        );
      }
    }
    for (const id of await outboxRepository.due(ctx.db, 100, loggedUpTo)) {
      loggedUpTo = id;
      const m = await outboxRepository.findById(ctx.db, id);
      // Tokens never reach the log: a link's `t=` is redacted; admins read the full links in the outbox.
      if (m) {
        ctx.log.info(
          { outboxId: id, kind: m.kind, to: m.to_address, links: (JSON.parse(m.links) as string[]).map(redactLinkToken) },
          'mail queued (no SMTP_URL set): an admin reads it with its full links in GET /api/outbox or the admin Outbox screen',
        );
      }
    }
  }

  /** Claims due messages one at a time (a lease each) and sends them, until none is due. */
  async function sendDue() {
    for (;;) {
      if (stopped) return;
      const m = await outboxRepository.claimNext(ctx.db, lease);
      if (!m) return;
      const id = Number(m.id);
      try {
        // nodemailer honours `signal` (its bundled types do not list it yet): stop() aborts a send
        // in progress, and so does the deadline that keeps a send inside its lease.
        // The outbox id travels in a header and a stable Message-ID: a copy sent again after a
        // crash between the SMTP server's acceptance and markSent (at-least-once; RELIABILITY.md)
        // is recognisable as the same message, and receivers that dedupe by Message-ID drop it.
        const mail = {
          from: ctx.config.mailFrom, to: m.to_address, subject: m.subject, text: m.body_text,
          signal: AbortSignal.any([aborter.signal, AbortSignal.timeout(sendDeadlineMs)]),
          headers: { 'X-Lifeline-Outbox-Id': String(id) },
          messageId: `<outbox-${id}.${Date.parse(m.created_at)}@${/@([\w.-]+)/.exec(ctx.config.mailFrom)?.[1] ?? 'lifeline.local'}>`,
        };
        await mailer!.sendMail(mail);
        // Marked at once: the window in which a crash resends an accepted message is this one statement.
        // The same statement drops the message's secrets: the stored copy keeps each link's path and `t=…`.
        if (await outboxRepository.markSent(ctx.db, id, workerId)) ctx.log.info({ outboxId: id, kind: m.kind }, 'mail sent');
        else ctx.log.warn({ outboxId: id }, 'mail sent after its lease ran out: another worker may send it again');
      } catch (err) {
        if (aborter.signal.aborted) {
          // Shutting down: back to the queue, due at once on the next start (never marked failed for it).
          await outboxRepository.retryLater(ctx.db, id, 'Interrupted by shutdown', new Date().toISOString(), workerId);
          return;
        }
        const error = (err as Error).message.slice(0, 500);
        if (m.attempts >= MAX_ATTEMPTS) {
          await outboxRepository.markFailed(ctx.db, id, error, workerId);
          ctx.log.error({ outboxId: id, error }, 'mail failed for good');
        } else {
          await outboxRepository.retryLater(ctx.db, id, error, new Date(Date.now() + backoffMs(m.attempts)).toISOString(), workerId);
          ctx.log.warn({ outboxId: id, attempt: m.attempts, error }, 'mail send failed; will retry');
        }
      }
    }
  }

  /** Runs one pass; a nudge during a pass schedules another right after it. */
  const tick = () => asBackground('outbox', pass);
  async function pass() {
    if (running) { again = true; return; }
    running = true;
    try {
      do {
        again = false;
        await (mailer ? sendDue() : logUnsent());
      } while (again && !stopped);
    } catch (err) {
      if (!stopped) ctx.log.error({ err }, 'outbox pass failed');
    } finally {
      running = false;
    }
  }

  const ready = outboxRepository.requeueInterrupted(ctx.db).then(() => tick());
  const timer = setInterval(tick, opts.pollMs ?? POLL_MS);
  const unsubscribe = ctx.bus.subscribe((e) => { if (e.type === 'mail.queued') void tick(); });

  return {
    workerId,
    ready,
    /** Resolves once the current pass (if any) is done, or after STOP_WAIT_MS when a send hangs. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
      aborter.abort();
      const deadline = Date.now() + STOP_WAIT_MS;
      while (running && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (running) ctx.log.warn('outbox: a send is still in progress at shutdown; it will be retried at the next start');
      mailer?.close();
    },
  };
}
