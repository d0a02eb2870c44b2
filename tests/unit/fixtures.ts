/** Test data in the contract's shapes and a fetch stub answering the main endpoints. */
import { vi } from 'vitest';
import type { Comment, Post } from '../../src/shared/schemas.ts';

export function makePost(id: number, overrides: Partial<Post> = {}): Post {
  return {
    id,
    user: { uid: 100 + id, ucode: `U${id}`, nick: `作者${id}`, avatar: '', is_follow: false },
    content: `第 ${id} 条动态的内容`,
    channels: [{ channel_id: 1, channel_name: 'Java 技术栈' }],
    topics: [{ topic_id: 7, topic_name: '我的学习计划' }],
    attach: [],
    vote: null,
    like_count: id,
    comment_count: 2,
    is_like: false,
    is_good: false,
    create_time: Date.now() - 5 * 60_000,
    ...overrides,
  };
}

export function makeComment(id: number, overrides: Partial<Comment> = {}): Comment {
  return {
    id,
    post_id: 7,
    user: { uid: 1, ucode: 'ME', nick: '我', avatar: '', is_follow: false },
    content: `第 ${id} 条评论`,
    like_count: 0,
    is_like: false,
    create_time: Date.now(),
    reply_user: null,
    is_deleted: false,
    reply_count: 0,
    replies: [],
    ...overrides,
  };
}

export interface FetchStubOptions {
  /** Total posts the feed serves (newest first, ids descending). */
  posts?: number;
  explore?: { title: string; id: number; redirect_param: string }[];
  loggedIn?: boolean;
}

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, data }), { headers: { 'content-type': 'application/json' } });
const failure = (code: number, msg: string) =>
  new Response(JSON.stringify({ code: -1, error: { code, msg } }), { headers: { 'content-type': 'application/json' } });

/** Installs a fetch stub; returns the mock to inspect calls. */
export function stubApi(options: FetchStubOptions = {}) {
  const total = options.posts ?? 25;
  const all = Array.from({ length: total }, (_, i) => makePost(total - i));
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    switch (url.pathname) {
      case '/serv/v1/user/auth':
        return options.loggedIn
          ? envelope({ uid: 1, ucode: 'ME', nick: '我', avatar: '', cellphone: '138****0000', ctime: 0, student: 0, usertype: 1 })
          : failure(-2000, '请先登录');
      case '/serv/v1/follower/follower_channel':
        return envelope({ is_follow: true });
      case '/serv/v1/follower/follower_channel_cancel':
        return envelope({ is_follow: false });
      case '/serv/v1/channel/user_channel_list':
        return envelope({ list: [{ channel_id: 3, channel_name: '前端' }, { channel_id: 4, channel_name: '读书会' }] });
      case '/serv/v3/explore/list':
        return envelope({ info: { list: options.explore ?? [] } });
      case '/serv/v1/channel/posts':
      case '/serv/v1/topic/posts':
      case '/serv/v1/user/posts': {
        const size = Number(body.size ?? 10);
        const index = Number(body.index ?? 0);
        const rest = index > 0 ? all.filter((p) => p.id < index) : all;
        const list = rest.slice(0, size);
        const last = list[list.length - 1];
        return envelope({ list, page: { more: rest.length > size, next_index: last ? last.id : 0 } });
      }
      case '/serv/v1/post/detail':
        return envelope(makePost(Number(body.post_id)));
      case '/serv/v1/comment/list':
        return envelope({ list: [], page: { more: false, next_index: 0 } });
      case '/serv/v1/topic/list':
        return envelope({ list: [{ topic_id: 7, topic_name: '我的学习计划', intro: '', cover: '', post_count: 3 }], page: { more: false, next_index: 0 } });
      case '/serv/v1/topic/detail':
        return envelope({ topic_id: Number(body.topic_id), topic_name: '我的学习计划', intro: '简介', cover: '', post_count: 3 });
      case '/serv/v1/channel/detail':
        return envelope({ channel_id: Number(body.channel_id), channel_name: 'Java 技术栈', intro: '', icon: '', category_id: 1, follower_count: 10, post_count: 3, is_follow: false });
      case '/serv/v1/booklist/detail': {
        const cover = { url: '/img/cover', width: 300, height: 400 };
        const book = { id: 1, title: '重构', author: 'Martin Fowler', cover, reason: '小步改进代码的设计。', link: { type: 'column', id: 7, title: '设计模式之美' } };
        return envelope({ code: String(body.code), title: '读书会书单', intro: '简介', cover: { ...cover, width: 1200, height: 480 }, books: [book] });
      }
      case '/serv/v1/channel/category_channel':
        return envelope({ list: [] });
      case '/serv/v1/user/info':
        return envelope({ uid: 5, ucode: 'U5', nick: '作者5', avatar: '', is_follow: false, intro: '', is_self: false, follower_count: 1, following_count: 2, post_count: 3, like_count: 4 });
      case '/serv/v1/code/detail':
        return envelope({ uuid: String(body.uuid), post_id: Number(body.post_id), language: 'go', title: 'main.go', code: 'package main\n' });
      default:
        return failure(-1005, '内容不存在或已被删除');
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/**
 * Counts the Intl.Segmenter instances made while `run` uses a fresh copy of the modules that
 * `load` imports (shared/text-length.ts keeps its segmenter once made, so an earlier test's would hide one).
 */
export async function withCountedSegmenters<T>(load: () => Promise<T>, run: (fresh: T, made: () => number) => Promise<void> | void): Promise<void> {
  vi.resetModules();
  const Real = Intl.Segmenter;
  let made = 0;
  vi.stubGlobal('Intl', {
    ...Intl,
    Segmenter: class extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        made++;
      }
    },
  });
  try {
    await run(await load(), () => made);
  } finally {
    vi.unstubAllGlobals();
  }
}
