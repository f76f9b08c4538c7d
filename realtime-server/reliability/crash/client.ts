import type { CrashFigures } from './figures';

/** A write the server answered 2xx: it must be in the database after every restart. */
export type Ack =
  | { kind: 'dispatch'; caseId: string; marker: string }
  | { kind: 'status'; caseId: string; status: string; version: number }
  | { kind: 'position'; ambulanceId: number; latitude: number; longitude: number }
  | { kind: 'share'; caseId: string; latitude: number; longitude: number }
  | { kind: 'tracking'; caseId: string }
  | { kind: 'unitStatus'; assignmentId: number; step: string; at: string }
  | { kind: 'unitAdded'; caseId: string; assignmentId: number; ambulanceId: number };

/** A keyed dispatch whose answer was lost in a kill. */
export interface InDoubtDispatch { key: string; body: Record<string, unknown>; marker: string }

export interface Answer<T> { status: number; body: T; replayed: boolean }

/** The answer of a dispatch (POST /live-location). */
export interface Dispatched { caseId: string; locationLink?: string }

/**
 * The operator's side of the loop, kept across restarts: its session, every write the server
 * acknowledged, the dispatches in doubt, and the patients' location-link tokens.
 */
export class CrashClient {
  readonly acks: Ack[] = [];
  inDoubt: InDoubtDispatch[] = [];
  /** The patient location links' tokens, from the dispatch answers (the only place they are given), by case id. */
  readonly locationTokens = new Map<string, string>();
  private token = '';

  constructor(private readonly base: string, private readonly figures: CrashFigures) {}

  /** A request as the operator; `T` is the shape of a 2xx answer's body (an error's body differs). */
  async call<T>(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    this.figures.requests += 1;
    const res = await fetch(this.base + urlPath, {
      method,
      headers: { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, replayed: res.headers.get('idempotent-replayed') === 'true' };
  }

  /** Signs the demo operator in once; the session outlives restarts (it is in the database). */
  async signIn() {
    if (this.token) return;
    const res = await this.call<{ token: string }>('POST', '/api/auth/signin', { email: 'operator@lifeline.test', username: 'Operator', phone: '5550101' });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
  }

  acknowledged(a: Ack) {
    this.acks.push(a);
    this.figures.acknowledged += 1;
  }

  /** Keeps the location link's token of a dispatch answer. */
  rememberLink(body: { caseId?: string; locationLink?: string }) {
    if (body?.caseId && body.locationLink) this.locationTokens.set(body.caseId, new URL(body.locationLink).searchParams.get('t') ?? '');
  }

  /** Dispatches a case with an Idempotency-Key; acknowledged on 201. */
  async dispatch(key: string, body: Record<string, unknown>, marker: string): Promise<Answer<Dispatched>> {
    const res = await this.call<Dispatched>('POST', '/live-location', body, { 'Idempotency-Key': key });
    if (res.status === 201) {
      this.acknowledged({ kind: 'dispatch', caseId: res.body.caseId, marker });
      this.rememberLink(res.body);
    }
    return res;
  }
}
