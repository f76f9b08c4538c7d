// What `npm start` says while it works (scripts/bootstrap.mjs): install progress and the plain
// "open this address, sign in as" lines. Node only, no dependencies: it runs before they exist.
import fs from 'node:fs';
import path from 'node:path';

function lockEntries(root) {
  try {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
    return Object.entries(lock.packages ?? {}).filter(([where, p]) => where.startsWith('node_modules/') && !p.link);
  } catch {
    return [];
  }
}

/**
 * The packages `npm ci` surely puts in place, from package-lock.json: every entry under
 * node_modules/ but the optional ones (other platforms' builds such as @esbuild/darwin-arm64
 * or musl variants, which npm skips here).
 */
export function expectedPackages(root) {
  return lockEntries(root).filter(([, p]) => !p.optional).map(([where]) => where);
}

/** The packages whose install scripts run after the files are in place (native modules compile there). */
export function packagesWithInstallScripts(root) {
  return lockEntries(root).filter(([, p]) => p.hasInstallScript && !p.optional).map(([where]) => where.replace(/^.*node_modules\//, ''));
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

/**
 * One progress line: "312 of 426 packages (73%), 1 min 05 s". Never says 100% before npm is
 * done; once every package is on disk, it names the install scripts npm is running.
 */
export function progressLine(done, total, elapsedMs, scripts = []) {
  if (total <= 0) return `${done} packages so far, ${clock(elapsedMs)}`;
  const pct = Math.min(99, Math.floor((done / total) * 100));
  const line = `${Math.min(done, total)} of ${total} packages (${pct}%), ${clock(elapsedMs)}`;
  return done >= total && scripts.length ? `${line}; building native modules (${scripts.join(', ')}), about a minute` : line;
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
