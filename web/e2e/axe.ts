import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type Request } from '@playwright/test';
import { settled } from './helpers';

/** WCAG 2.1 A and AA plus axe's best practices: what every screen must pass, in any impact. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface AxeCheck {
  /** Wait for the settled page first (needs trackRequests before the page loaded); default true. */
  settle?: boolean;
  /** How long the page may take to settle (a loaded machine needs seconds for a fade or a fetch). */
  settleTimeout?: number;
  /** Requests a test holds on purpose (a screen caught while it loads): left out of "settled". */
  ignore?: (r: Request) => boolean;
  /** Moves the pointer here first, off whatever it hovers (a tooltip lives outside the landmarks). */
  pointerAt?: { x: number; y: number };
  /** Report and go on (expect.soft), so one run lists every screen's violations. */
  soft?: boolean;
}

/** Runs axe on the page (settled unless asked otherwise); fails listing each violation's rule, impact, targets and summary. */
export async function expectNoViolations(page: Page, what: string, check: AxeCheck = {}): Promise<void> {
  if (check.pointerAt) await page.mouse.move(check.pointerAt.x, check.pointerAt.y);
  if (check.settle ?? true) await settled(page, { timeout: check.settleTimeout ?? 20_000, ignore: check.ignore });
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const report = violations.flatMap((v) =>
    v.nodes.map((n) => `[${v.impact}] ${v.id}: ${n.target.join(' ')}\n    ${n.failureSummary?.replace(/\n/g, '\n    ')}`));
  (check.soft ? expect.soft : expect)(report, `axe violations on ${what}:\n${report.join('\n')}`).toEqual([]);
}
