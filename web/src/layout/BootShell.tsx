/**
 * The loading shell of web/index.html (its styles live there), rendered by React while the
 * first chunks of a page load: the page goes from the static shell to this same picture,
 * never to a blank one. No MUI here: it shows before MUI has arrived.
 */
export function BootShell() {
  return (
    <div className="boot-shell">
      <div className="boot-bar" />
      <p className="boot-text" role="status">Loading…</p>
    </div>
  );
}
