/**
 * The confirmation panel's viewport over the operation, as a pure state: where it is, and which
 * lines have been on screen. An approval is accepted only once every line has been shown (or the
 * whole text was opened in $PAGER): the person never approves what they could not see.
 */
export interface ScrollState {
  readonly offset: number;
  readonly height: number;
  readonly total: number;
  /** Lines shown so far, as sorted, merged [start, end) ranges. */
  readonly seen: readonly (readonly [number, number])[];
  readonly paged: boolean;
}

export type ScrollAction =
  | { readonly type: 'line'; readonly delta: number }
  | { readonly type: 'page'; readonly delta: number }
  | { readonly type: 'home' }
  | { readonly type: 'end' }
  | { readonly type: 'paged' }
  /** `rewrapped`: the body was wrapped at a new width, so earlier lines seen are not these lines. */
  | { readonly type: 'resize'; readonly height: number; readonly total: number; readonly rewrapped?: boolean };

function addRange(
  seen: readonly (readonly [number, number])[],
  start: number,
  end: number,
): (readonly [number, number])[] {
  const ranges = [...seen, [start, end] as const].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of ranges) {
    const last = merged.at(-1);
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

function show(state: Omit<ScrollState, 'seen'> & { seen: ScrollState['seen'] }, offset: number): ScrollState {
  const maxOffset = Math.max(0, state.total - state.height);
  const clamped = Math.min(Math.max(0, offset), maxOffset);
  return {
    ...state,
    offset: clamped,
    seen: addRange(state.seen, clamped, Math.min(state.total, clamped + state.height)),
  };
}

export function initialScroll(height: number, total: number): ScrollState {
  return show({ offset: 0, height: Math.max(1, height), total, seen: [], paged: false }, 0);
}

export function scrollReducer(state: ScrollState, action: ScrollAction): ScrollState {
  switch (action.type) {
    case 'line':
      return show(state, state.offset + action.delta);
    case 'page':
      // A page keeps one line of the last one, so the reader does not lose their place.
      return show(state, state.offset + action.delta * Math.max(1, state.height - 1));
    case 'home':
      return show(state, 0);
    case 'end':
      return show(state, state.total);
    case 'paged':
      return { ...state, paged: true };
    case 'resize': {
      // After a re-wrap the old offset points into other lines: the top, with nothing counted as seen.
      const offset = action.rewrapped === true ? 0 : state.offset;
      const seen = action.rewrapped === true ? [] : state.seen;
      return show({ ...state, height: Math.max(1, action.height), total: action.total, seen }, offset);
    }
    default: {
      const unreachable: never = action;
      return unreachable;
    }
  }
}

/** Lines never shown, for the "not seen yet" notice; 0 when the whole operation was seen. */
export function unseenLines(state: ScrollState): number {
  if (state.paged) return 0;
  const seen = state.seen.reduce(
    (sum, [from, to]) => sum + (Math.min(to, state.total) - Math.min(from, state.total)),
    0,
  );
  return Math.max(0, state.total - seen);
}

/** Whether everything fits without scrolling. */
export function fits(state: ScrollState): boolean {
  return state.total <= state.height;
}
