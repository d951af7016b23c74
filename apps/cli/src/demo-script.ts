import type { ScriptedReply } from '@riskgate/testing';

/** The scripted model of `riskgate demo`: one read that runs unasked, one write that asks first. */
export const DEMO_MODEL = 'riskgate-demo';

export const DEMO_REPLIES: readonly ScriptedReply[] = [
  {
    text: 'Let me look at the orders.',
    toolCalls: [
      {
        name: 'execute_sql',
        arguments: {
          sql: 'SELECT status, count(*) AS orders, round(sum(total_cents) / 100.0, 2) AS revenue FROM orders GROUP BY status ORDER BY orders DESC',
        },
      },
    ],
  },
  {
    text: 'Most orders are **delivered**; that query only read data, so it ran without asking.\n\nNow ask me to clean something up (anything: this demo model follows a script).',
  },
  { toolCalls: [{ name: 'execute_sql', arguments: { sql: "DELETE FROM payments WHERE method = 'bank_transfer'" } }] },
  {
    text: 'That one changes data, so riskgate asked first. Try `/audit` to see every decision and why, `/help` for the rest, and `/exit` to leave.',
  },
];

/** What the demo model says once its script has run out, as often as it is asked. */
export const DEMO_END: ScriptedReply = {
  text: "This demo's script has ended. Configure a real model (see README.md) to keep going.",
};
