import { basename } from 'node:path';
import { type Dispatch, useEffect, useRef } from 'react';
import type { Session } from '../session/create-session.js';
import type { ConversationAction } from './conversation.js';
import { itemsFromMessages } from './restore.js';

/**
 * What a session shows when it first comes on screen: the sandbox's notice at start-up, the
 * storage's warnings, and a resumed conversation.
 */
export function useSessionShown(
  session: Session | undefined,
  dispatch: Dispatch<ConversationAction>,
  clearScreen: () => void,
): void {
  // A resumed conversation is redrawn as it was, then says where it came from.
  const shownSession = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (session === undefined || shownSession.current === session.id) return;
    const switched = shownSession.current !== undefined;
    shownSession.current = session.id;
    if (!switched && session.info.sandboxNotice !== undefined)
      dispatch({ type: 'notice', tone: 'info', text: session.info.sandboxNotice });
    session.storage.listen((text) => dispatch({ type: 'notice', tone: 'warning', text: `riskgate: ${text}` }));
    if (session.restored.length > 0) {
      // Switching to it mid-sitting replaces what is on screen; at start-up the shell's screen stays.
      if (switched) clearScreen();
      dispatch({ type: 'restore', items: itemsFromMessages(session.restored, session.restoredEvents) });
      dispatch({
        type: 'notice',
        tone: 'info',
        text: `resumed ${basename(session.info.transcriptPath)}: ${session.restored.length} messages`,
      });
    }
  }, [session, clearScreen, dispatch]);
}
