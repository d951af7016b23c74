import { Box, Static } from 'ink';
import type { ConversationState, Item } from './conversation.js';
import { ItemView } from './ItemView.js';
import { Spinner } from './Spinner.js';
import type { Views } from './use-session.js';

/** Finished items (printed once, in <Static>), the live ones, and "thinking" while the model is. */
export function ConversationView({
  conversation,
  waitingForApproval,
  width,
  views,
}: {
  readonly conversation: ConversationState;
  readonly waitingForApproval: boolean;
  readonly width: number;
  readonly views: Views | undefined;
}) {
  const lastLive = conversation.live.at(-1);
  const thinking =
    conversation.busy &&
    !waitingForApproval &&
    !(lastLive?.kind === 'tool' && lastLive.state === 'executing') &&
    lastLive?.kind !== 'assistant' &&
    lastLive?.kind !== 'reasoning';
  return (
    <>
      <Static key={conversation.generation} items={conversation.done as Item[]}>
        {(item) => (
          <Box key={item.id} marginBottom={item.kind === 'assistant' ? 1 : 0}>
            <ItemView item={item} width={width} views={views} />
          </Box>
        )}
      </Static>
      {conversation.live.map((item) => (
        <ItemView key={item.id} item={item} width={width} views={views} />
      ))}
      {thinking ? <Spinner since={Date.now()} label="thinking" /> : null}
    </>
  );
}
