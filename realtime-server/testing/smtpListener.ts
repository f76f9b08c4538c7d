import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope sender and recipients, as the SMTP session saw them. */
  from: string | null;
  to: string[];
  raw: string;
  headers: Record<string, string>;
  subject: string;
  /** The decoded text body. */
  text: string;
}

/**
 * A real SMTP server on 127.0.0.1 (ephemeral port, no TLS, no auth) that keeps every
 * message it accepts (once its DATA is complete: the moment it answers 250). `rejectRcpt`
 * makes it refuse every recipient with a 550 until cleared; `sendersMayDie` shrugs off
 * connections reset mid-conversation (the crash loop kill -9s the sender on purpose).
 */
export async function startSmtpListener(opts: { rejectRcpt?: boolean; sendersMayDie?: boolean } = {}) {
  const received: ReceivedMail[] = [];
  const state = { rejectRcpt: Boolean(opts.rejectRcpt), rcptRejected: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.rejectRcpt) return callback();
      state.rcptRejected += 1;
      const err = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mailFrom = session.envelope.mailFrom;
        received.push({
          ...parseMessage(raw),
          raw,
          from: mailFrom ? mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  if (opts.sendersMayDie) server.on('error', () => { /* a sender killed mid-conversation */ });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    /** The SMTP_URL for Lifeline: plain SMTP, STARTTLS ignored. */
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpListener = Awaited<ReturnType<typeof startSmtpListener>>;

/** Headers (lower-cased names, unfolded, encoded words decoded) and the decoded body of a single-part message. */
export function parseMessage(raw: string): Pick<ReceivedMail, 'headers' | 'subject' | 'text'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text = cte === 'quoted-printable' ? decodeQuotedPrintable(body)
    : cte === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : body;
  return { headers, subject: headers.subject ?? '', text: text.replace(/\r\n/g, '\n') };
}

function decodeQuotedPrintable(s: string): string {
  const joined = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=). */
function decodeWords(v: string): string {
  return v.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')));
}

/** A TCP server on 127.0.0.1 that accepts connections and never says a word (an SMTP server that hangs). */
export async function startSilentServer() {
  const connections: net.Socket[] = [];
  const srv = net.createServer((c) => { connections.push(c); c.on('error', () => {}); });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const { port } = srv.address() as AddressInfo;
  return {
    port,
    connections,
    close: () => new Promise<void>((resolve) => {
      for (const c of connections) c.destroy();
      srv.close(() => resolve());
    }),
  };
}
