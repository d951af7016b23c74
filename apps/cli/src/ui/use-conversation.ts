import { useCallback, useReducer } from 'react';
import { conversationReducer, INITIAL_CONVERSATION } from './conversation.js';
import { clearTerminal } from './static-output.js';

/** A notice line on screen: what the app and slash commands tell the person. */
export type Notice = (text: string, tone?: 'info' | 'error') => void;

/**
 * The conversation on screen, opening with the config's notice when it left something out, and
 * the two ways the app adds to it besides events: a notice, and a cleared screen.
 */
export function useConversation(configNotices: readonly (string | undefined)[], stdout: NodeJS.WriteStream) {
  const [conversation, dispatch] = useReducer(conversationReducer, INITIAL_CONVERSATION, (initialState) =>
    configNotices.reduce(
      (state, notice) =>
        notice === undefined
          ? state
          : conversationReducer(state, { type: 'notice', tone: 'warning', text: `riskgate: ${notice}` }),
      initialState,
    ),
  );
  const clearScreen = useCallback(() => {
    // The screen and its scrollback: what <Static> printed is not Ink's to take back.
    clearTerminal(stdout);
    dispatch({ type: 'clear' });
  }, [stdout]);
  const notice: Notice = useCallback(
    (text: string, tone: 'info' | 'error' = 'info') => dispatch({ type: 'notice', tone, text }),
    [],
  );
  return { conversation, dispatch, clearScreen, notice };
}
