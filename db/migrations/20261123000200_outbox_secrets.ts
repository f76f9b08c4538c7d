import type { Knex } from 'knex';

/**
 * A message's live secrets (link tokens, a sign-in code) are needed only until it is sent:
 * `body_redacted`/`links_redacted` hold the message as it is kept afterwards (each secret
 * replaced by `…`), computed when it is queued, so that marking it sent or failed can drop
 * the secrets without keeping them anywhere else. Both are null when the stored body holds
 * no live secret. `secrets_expire_at` says when the secrets stop working by themselves (a
 * sign-in code), so that an unsent message can lose them then too.
 *
 * Rows queued before this migration get the same treatment: a link's secret is its `t=`
 * value, a sign-in code mail's the indented 6-digit line; messages already sent or failed
 * are redacted at once.
 */
const CODE_VALID_MINUTES = 10;
const CODE_LINE = /^( {4})(\d{6})$/m;

function secretsOf(row: { kind: string; body_text: string; links: string }): string[] {
  const links = (() => { try { return JSON.parse(row.links) as string[]; } catch { return []; } })();
  const found = links.flatMap((l) => [...l.matchAll(/[?&]t=([^&#\s]+)/g)].map((m) => m[1]));
  const code = row.kind === 'signin-code' ? CODE_LINE.exec(row.body_text)?.[2] : undefined;
  return [...found, ...(code ? [code] : [])].filter((s) => s.length > 0);
}

const redact = (text: string, secrets: string[]) => secrets.reduce((t, s) => t.split(s).join('…'), text);

export async function up(knex: Knex) {
  await knex.schema.alterTable('outbox', (t) => {
    t.text('body_redacted');
    t.text('links_redacted');
    t.string('secrets_expire_at', 30);
  });
  const rows: { id: number; kind: string; status: string; body_text: string; links: string; created_at: string }[] =
    await knex('outbox').select('id', 'kind', 'status', 'body_text', 'links', 'created_at');
  for (const row of rows) {
    const secrets = secretsOf(row);
    if (secrets.length === 0) continue;
    const body = redact(row.body_text, secrets);
    const links = redact(row.links, secrets);
    if (row.status === 'sent' || row.status === 'failed') {
      await knex('outbox').where({ id: row.id }).update({ body_text: body, links });
    } else {
      const expires = row.kind === 'signin-code' ? new Date(Date.parse(row.created_at) + CODE_VALID_MINUTES * 60_000).toISOString() : null;
      await knex('outbox').where({ id: row.id }).update({ body_redacted: body, links_redacted: links, secrets_expire_at: expires });
    }
  }
}

export async function down(knex: Knex) {
  await knex.schema.alterTable('outbox', (t) => {
    t.dropColumn('body_redacted');
    t.dropColumn('links_redacted');
    t.dropColumn('secrets_expire_at');
  });
}
