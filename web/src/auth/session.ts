import type { Role, SignInResponse } from '../api/contract';

/** The four session items kept in the browser's local storage (SPEC §3). */
export const SESSION_KEYS = ['userEmail', 'userToken', 'userRole', 'userName'] as const;
export type SessionKey = (typeof SESSION_KEYS)[number];

export interface Session {
  email: string;
  token: string;
  role: Role;
  name: string;
}

const isStaffRole = (role: string | null): role is Role => role === 'admin' || role === 'operator';

function readStored(): Session | null {
  const email = localStorage.getItem('userEmail');
  const token = localStorage.getItem('userToken');
  const role = localStorage.getItem('userRole');
  if (!email || !token || !isStaffRole(role)) return null;
  return { email, token, role, name: localStorage.getItem('userName') || email };
}

let current: Session | null = null;
let decided = false;
const listeners = new Set<() => void>();

function publish(next: Session | null) {
  current = next;
  listeners.forEach((listener) => listener());
}

/**
 * Decides the session once, at application start: it is valid only if e-mail, token and
 * role are present and the role is admin or operator; otherwise all four items are cleared.
 */
export function initSession(): Session | null {
  if (decided) return current;
  decided = true;
  current = readStored();
  if (!current) SESSION_KEYS.forEach((key) => localStorage.removeItem(key));
  return current;
}

/** The session decided at start, as changed since by sign-in and sign-out. */
export function getSession(): Session | null {
  if (!decided) initSession();
  return current;
}

/** Stores a successful sign-in; userName falls back to the e-mail. */
export function saveSession(response: SignInResponse): Session | null {
  const { token, user } = response;
  localStorage.setItem('userEmail', user.email);
  localStorage.setItem('userToken', token);
  localStorage.setItem('userRole', user.role);
  localStorage.setItem('userName', user.username || user.email);
  decided = true;
  publish(readStored());
  return current;
}

/** Removes session items (all four unless told which) and ends the session in memory. */
export function clearSession(keys: readonly SessionKey[] = SESSION_KEYS): void {
  keys.forEach((key) => localStorage.removeItem(key));
  decided = true;
  publish(null);
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What the router context carries as `auth`. */
export const auth = { getSession, saveSession, clearSession, subscribe: subscribeSession };
export type Auth = typeof auth;
