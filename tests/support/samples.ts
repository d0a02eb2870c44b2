/**
 * A valid input for every call of the route table, on the seeded demo database, with a fresh
 * client_id each time: the contract's requests (each call succeeds or meets a business rule once
 * it is served), the starting point of the fuzzer's mutations and the authorization matrix's
 * requests. A new route without a sample is a type error here.
 */
import { eq, sql } from 'drizzle-orm';
import type { EndpointName, InputOf } from '../../src/shared/endpoints.ts';
import type { Db } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema.ts';
import { newClientId } from './api.ts';
import { queryRows } from './db.ts';

/** Seeded rows the samples point at. */
export interface SampleFixtures {
  demoUcode: string;
  snippet: { post_id: number; uuid: string };
  avatarUrl: string;
  /** A login code just sent to `loginPhone` (login's sample spends it). */
  loginPhone: string;
  loginCode: string;
  /** A phone nobody asked a code for yet (loginCode's sample). */
  codePhone: string;
}

export async function seededFixtures(db: Db): Promise<Pick<SampleFixtures, 'demoUcode' | 'snippet' | 'avatarUrl'>> {
  const [demo] = await db.select().from(users).where(eq(users.id, 1));
  const [snippet] = await queryRows<{ post_id: number; uuid: string }>(
    db,
    sql`select post_id::int as post_id, uuid from code_snippets order by post_id limit 1`,
  );
  if (!demo || !snippet) throw new Error('seededFixtures: the demo seed is missing');
  return { demoUcode: demo.ucode, snippet, avatarUrl: demo.avatar };
}

/** A browser's push subscription at a push service the default PUSH_SERVICE_HOSTS allow. */
export const SAMPLE_PUSH_SUBSCRIPTION = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/contract-sample',
  keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
};

export const samples: { [K in EndpointName]: (f: SampleFixtures) => InputOf<K> } = {
  loginCode: (f) => ({ cellphone: f.codePhone }),
  login: (f) => ({ cellphone: f.loginPhone, code: f.loginCode, device_kind: 'mobile', device_id: 'fuzz-device-0001' }),
  logout: () => ({}),
  auth: () => ({ t: String(Date.now()) }),
  checkUser: () => ({}),
  channelDetail: () => ({ channel_id: 1 }),
  recommendChannelList: () => ({ size: 5 }),
  categoryChannel: () => ({}),
  channelPosts: () => ({ channel_id: 1, size: 5 }),
  followChannel: () => ({ channel_id: 2, client_id: newClientId('sample') }),
  unfollowChannel: () => ({ channel_id: 2 }),
  userChannelList: () => ({ source: 1, visit_user_id: 1 }),
  followUser: () => ({ user_id: 2 }),
  unfollowUser: () => ({ user_id: 2, client_id: newClientId('sample') }),
  userInfo: () => ({ data_mode: 1, visit_user_id: 2 }),
  userPosts: () => ({ visit_user_id: 2, size: 5 }),
  noteList: (f) => ({ visit_ucode: f.demoUcode }),
  nickUpdate: () => ({ nick: '模糊测试者', client_id: newClientId('sample') }),
  postDetail: () => ({ post_id: 5 }),
  postAdd: () => ({
    content: '一条新动态 #话题#',
    channel_id: [1, 2],
    attach: [{ type: 'code', language: 'js', title: '示例', code: 'console.log(1)' }],
    topic_tags: '#模糊测试#',
    vote: { title: '选哪个', options: ['甲', '乙'], multiple: false },
    client_id: newClientId('sample'),
  }),
  postDelete: () => ({ post_id: 5 }),
  likeAdd: () => ({ post_id: 5, type: 1, client_id: newClientId('sample') }),
  likeCancel: () => ({ comment_id: 1, type: 2 }),
  likeList: () => ({ post_id: 5, size: 5, index: 0 }),
  commentList: () => ({ post_id: 5, size: 5 }),
  commentReplies: () => ({ comment_id: 1, size: 5 }),
  commentAdd: () => ({ post_id: 5, content: '一条评论', reply_id: 1, client_id: newClientId('sample') }),
  commentDelete: () => ({ comment_id: 1 }),
  voteSubmit: () => ({ post_id: 5, option_ids: [1], client_id: newClientId('sample') }),
  search: () => ({ q: 'Kotlin', type: 'post', size: 5 }),
  topicList: () => ({ size: 5, index: 0 }),
  topicDetail: () => ({ topic_id: 1 }),
  topicPosts: () => ({ topic_id: 1, size: 5 }),
  codeDetail: (f) => f.snippet,
  booklistDetail: () => ({ code: '2024' }),
  complainAdd: () => ({ target_type: 'post', target_id: 5, reason: 'spam', content: '一条投诉', client_id: newClientId('sample') }),
  complainReasons: () => ({}),
  exploreList: () => ({ page: 'horde', block_name: 'sidebar' }),
  configList: () => ({ keys: ['race_medals'] }),
  noteUpdate: () => ({ content: '一条笔记' }),
  wxShareSign: () => ({ url: 'https://example.com/home?a=1#x', mpid: 'mp' }),
  collect: () => ({ app_id: 'community-feed', events: [{ event: 'fuzz_event', properties: { page_name: '首页', n: 1 }, time: Date.now() }] }),
  noticeList: () => ({ size: 5, index: 0, type: 'comment' }),
  noticeUnreadCount: () => ({}),
  noticeRead: () => ({ up_to_id: 1, client_id: newClientId('sample') }),
  noticeSettings: () => ({ like: true, client_id: newClientId('sample') }),
  pushKey: () => ({}),
  // Stored, never sent to: the sample's notices are not heard by an app that does not listen (createTestApp).
  pushSubscribe: () => ({ ...SAMPLE_PUSH_SUBSCRIPTION, client_id: newClientId('sample') }),
  pushUnsubscribe: () => ({ endpoint: SAMPLE_PUSH_SUBSCRIPTION.endpoint }),
  moderationQueue: () => ({ size: 5 }),
  moderationHide: () => ({ target_type: 'post', target_id: 5, reason: '样例理由', client_id: newClientId('sample') }),
  moderationRestore: () => ({ target_type: 'post', target_id: 5, client_id: newClientId('sample') }),
  moderationDismiss: () => ({ target_type: 'comment', target_id: 1, client_id: newClientId('sample') }),
  moderationSuspend: () => ({ user_id: 3, days: 7, reason: '样例理由', client_id: newClientId('sample') }),
  moderationLift: () => ({ user_id: 3, client_id: newClientId('sample') }),
  moderationLog: () => ({ size: 5, user_id: 3 }),
};