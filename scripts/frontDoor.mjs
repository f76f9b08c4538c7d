// What `npm start` says while it works (scripts/bootstrap.mjs): install progress and the plain
// "open this address, sign in as" lines. Node only, no dependencies: it runs before they exist.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The packages `npm ci` will put in place, from package-lock.json: every entry under
 * node_modules/ except optional ones for another platform (e.g. @esbuild/darwin-arm64).
 */
export function expectedPackages(root) {
  let lock;
  try { lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')); } catch { return []; }
  const forThisMachine = (p) =>
    !(p.optional && ((p.os && !p.os.includes(process.platform)) || (p.cpu && !p.cpu.includes(process.arch))));
  return Object.entries(lock.packages ?? {})
    .filter(([where, p]) => where.startsWith('node_modules/') && !p.link && forThisMachine(p))
    .map(([where]) => where);
}

/** How many of `packages` (lock-file paths) have their package.json on disk. */
export function installedCount(root, packages) {
  let n = 0;
  for (const where of packages) if (fs.existsSync(path.join(root, where, 'package.json'))) n += 1;
  return n;
}

const clock = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/** One progress line: "312 of 426 packages (73%), 1 min 05 s". Never says 100% before npm is done. */
export function progressLine(done, total, elapsedMs) {
  if (total <= 0) return `${done} packages so far, ${clock(elapsedMs)}`;
  const pct = Math.min(99, Math.floor((done / total) * 100));
  return `${Math.min(done, total)} of ${total} packages (${pct}%), ${clock(elapsedMs)}`;
}

/** The lines printed once the server answers: where to open it and, when the demo accounts work, how to sign in. */
export function readyLines({ url, demo }) {
  const lines = [`Lifeline is ready: open ${url} in a browser (Ctrl-C stops it).`];
  const account = (role) => demo.find((u) => u.role === role);
  const show = (u) => `e-mail ${u.email}, username ${u.name}, phone ${u.phone}`;
  const operator = account('operator');
  const admin = account('admin');
  if (operator) lines.push(`Sign in as the demo dispatcher: ${show(operator)}.`);
  if (admin) lines.push(`Sign in as the demo admin: ${show(admin)}.`);
  if (!operator && !admin) lines.push('Sign in with an account of this database (the demo accounts are not in it).');
  return lines;
}
