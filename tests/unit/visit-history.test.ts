import { beforeEach, describe, expect, it } from 'vitest';
import {
  nextVisitHistory,
  trackVisitHistory,
  useVisitHistoryStore,
  VISIT_HISTORY_KEY,
  VISIT_HISTORY_MAX,
  type HistoryLike,
} from '../../src/client/lib/visit-history.ts';

describe('nextVisitHistory', () => {
  it('adds new visits and never the same path twice in a row', () => {
    let h = nextVisitHistory([], '/home', 'INIT');
    expect(h).toEqual(['/home']);
    h = nextVisitHistory(h, '/message/detail/1', 'PUSH');
    h = nextVisitHistory(h, '/message/detail/1', 'PUSH');
    expect(h).toEqual(['/home', '/message/detail/1']);
  });

  it('keeps the history on a reload (INIT of the last path)', () => {
    expect(nextVisitHistory(['/home', '/good'], '/good', 'INIT')).toEqual(['/home', '/good']);
  });

  it('trims on back navigation', () => {
    const h = ['/home', '/message/detail/1', '/usercenter/2'];
    expect(nextVisitHistory(h, '/message/detail/1', 'BACK')).toEqual(['/home', '/message/detail/1']);
    expect(nextVisitHistory(h, '/home', 'GO', -2)).toEqual(['/home']);
  });

  it('trims to an earlier visit when Back lands further away than expected', () => {
    const h = ['/home', '/good', '/message/detail/1', '/topic/list'];
    expect(nextVisitHistory(h, '/good', 'BACK')).toEqual(['/home', '/good']);
  });

  it('replaces the last entry when Back reaches a page from before this session', () => {
    expect(nextVisitHistory(['/good'], '/somewhere', 'BACK')).toEqual(['/somewhere']);
  });

  it('replaces the last entry on REPLACE (redirects)', () => {
    expect(nextVisitHistory(['/good', '/'], '/home', 'REPLACE')).toEqual(['/good', '/home']);
  });

  it('treats forward like a new visit and keeps full paths with their query', () => {
    const h = nextVisitHistory(['/home'], '/follow?channelId=3', 'FORWARD');
    expect(h).toEqual(['/home', '/follow?channelId=3']);
  });

  it('keeps at most VISIT_HISTORY_MAX entries', () => {
    let h: string[] = [];
    for (let i = 0; i < VISIT_HISTORY_MAX + 10; i += 1) h = nextVisitHistory(h, `/message/detail/${i}`, 'PUSH');
    expect(h).toHaveLength(VISIT_HISTORY_MAX);
    expect(h.at(-1)).toBe(`/message/detail/${VISIT_HISTORY_MAX + 9}`);
  });
});

describe('trackVisitHistory', () => {
  beforeEach(() => {
    sessionStorage.clear();
    useVisitHistoryStore.getState().hydrate();
  });

  it('records the first page and every navigation in sessionStorage', () => {
    type Listener = Parameters<HistoryLike['subscribe']>[0];
    let listener: Listener = () => {};
    const history: HistoryLike = {
      location: { pathname: '/home', search: '?utm_source=x', hash: '' },
      subscribe(l) {
        listener = l;
        return () => {};
      },
    };
    trackVisitHistory(history);
    listener({ location: { pathname: '/message/detail/9', search: '', hash: '' }, action: { type: 'PUSH' } });
    listener({ location: { pathname: '/usercenter/3', search: '', hash: '' }, action: { type: 'PUSH' } });
    listener({ location: { pathname: '/message/detail/9', search: '', hash: '' }, action: { type: 'BACK' } });
    const expected = ['/home?utm_source=x', '/message/detail/9'];
    expect(useVisitHistoryStore.getState().entries).toEqual(expected);
    expect(JSON.parse(sessionStorage.getItem(VISIT_HISTORY_KEY) ?? '[]')).toEqual(expected);
  });
});
