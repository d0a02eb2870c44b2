/**
 * Bulk loader for benchmarks and the EXPLAIN test: adds `posts` posts with their authors,
 * channels, topics, pictures, code snippets, polls with votes, comments with replies and
 * likes, in a handful of set-based statements (generate_series), on top of whatever the
 * database holds (the demo seed, usually). 1,000,000 posts take about a minute on PostgreSQL.
 *
 * Everything is deterministic: each post's choices come from a hash of its number, so every
 * counter is known when its row is written (or is summed from rows once, at the end), and
 * tests/support's COUNTER_CHECKS hold afterwards. Ids are explicit (and may leave gaps); the
 * sequences are moved past them at the end.
 */

import { CODE_PREVIEW_LINES } from '../../src/server/db/post-attach.ts';

/** What the loader needs of a connection: pg.Client, a pg.PoolClient and PGlite all fit. */
export interface SqlRunner {
  query(text: string): Promise<{ rows: unknown[] }>;
}

export interface BulkLoadOptions {
  posts: number;
  /** Authors, likers, voters and commenters (default: one for every 50 posts, at least 200). */
  users?: number;
  /** Called after each step with its name and milliseconds (progress output). */
  onStep?: (step: string, ms: number) => void;
}

export interface BulkLoadSummary {
  posts: number;
  users: number;
  topics: number;
  comments: number;
  likes: number;
  votes: number;
  voteRecords: number;
  /** The first and last id of the loaded posts. */
  firstPostId: number;
  lastPostId: number;
  /** The first loaded user (bench users like posts, vote and comment). */
  firstUserId: number;
  ms: number;
}

const scalar = async (runner: SqlRunner, text: string): Promise<number> => {
  const { rows } = await runner.query(text);
  return Number(Object.values(rows[0] as Record<string, unknown>)[0] ?? 0);
};

/**
 * Loads in one session: foreign-key triggers are skipped where the role may (superuser:
 * session_replication_role), since every reference is made valid by construction.
 */
export async function bulkLoad(runner: SqlRunner, options: BulkLoadOptions): Promise<BulkLoadSummary> {
  const started = performance.now();
  const n = Math.max(1, Math.floor(options.posts));
  const userCount = Math.max(20, Math.floor(options.users ?? Math.max(200, n / 50)));
  const topicCount = Math.max(20, Math.floor(n / 500));
  const base = {
    user: await scalar(runner, 'select coalesce(max(id), 0) from users'),
    post: await scalar(runner, 'select coalesce(max(id), 0) from posts'),
    topic: await scalar(runner, 'select coalesce(max(id), 0) from topics'),
    comment: await scalar(runner, 'select coalesce(max(id), 0) from comments'),
    vote: await scalar(runner, 'select coalesce(max(id), 0) from votes'),
    option: await scalar(runner, 'select coalesce(max(id), 0) from vote_options'),
  };
  const channelsThere = await scalar(runner, 'select count(*) from channels');
  if (channelsThere === 0) throw new Error('bulkLoad needs channels (seed the demo data first)');
  const canSkipTriggers = await scalar(runner, "select (rolsuper)::int from pg_roles where rolname = current_user");

  // One derived table of the loaded posts: g (1..n), its id, a hash h that drives every choice.
  const P = `(select g, ${base.post} + g as id, ((g::bigint * 2654435761) % 2147483629)::int as h from generate_series(1, ${n}) g)`;
  const U = (expr: string) => `(${base.user + 1} + ((${expr}) % ${userCount}))`;
  const firstUser = base.user + 1;
  // Each choice once, so the post row's copies and the tables that hold the parts agree.
  const CH = `(select array_agg(id order by id) as ids, count(*)::int as n from channels)`;
  const channelsOfPost = 'least(ch.n, 1 + (p.h % 7 = 0)::int + (p.h % 13 = 0)::int)';
  const channelOf = (m: string) => `ch.ids[1 + ((p.h + ${m}) % ch.n)]`;
  const hasTopic = 'h % 10 < 3';
  const topicOf = `${base.topic + 1} + (h / 7) % ${topicCount}`;
  const hasImages = '(h / 11) % 100 < 15';
  const hasCode = '(h / 13) % 100 < 3';
  // A post's pictures (s from 0 to h % 3) and code snippet: written to post_images and
  // code_snippets, and the card's copy of them onto the post's row (posts.attach, schema.ts).
  const pictureUrl = `'/img/' || md5('picture' || p.id || '-' || s)`;
  const pictureWidth = '800 + (p.h % 5) * 100';
  const pictureHeight = '600';
  const codeUuid = `md5('code' || id)::uuid::text`;
  const codeLanguage = `'python'`;
  const codeTitle = `'快速排序'`;
  const codeText = `E'def quick_sort(items):\\n    if len(items) <= 1:\\n        return items\\n    pivot = items[len(items) // 2]\\n'
              || E'    left = [x for x in items if x < pivot]\\n    middle = [x for x in items if x == pivot]\\n'
              || E'    right = [x for x in items if x > pivot]\\n    return quick_sort(left) + middle + quick_sort(right)\\n\\n'
              || E'print(quick_sort([3, 6, 1, 8, 2, 9, 4]))\\n# 第 ' || g || E' 段代码\\n'`;
  const attach = `case when ${hasImages} or ${hasCode} then array_to_json(
                array(select json_build_object('type', 'image', 'url', ${pictureUrl}, 'width', ${pictureWidth}, 'height', ${pictureHeight})
                      from generate_series(0, case when ${hasImages} then p.h % 3 else -1 end) s order by s)
                || case when ${hasCode} then array[json_build_object('type', 'code', 'uuid', ${codeUuid}, 'language', ${codeLanguage},
                     'title', ${codeTitle}, 'preview', array_to_string((string_to_array(${codeText}, E'\\n'))[1:${CODE_PREVIEW_LINES}], E'\\n'))]
                   else '{}'::json[] end)
              else '[]' end`;
  const likeCount = 'h % 5';
  const commentCount = '(h / 5) % 3';
  const hasVote = '(h / 17) % 100 < 3';
  const voterCount = '((h / 19) % 12)';
  const optionCount = '(2 + (h / 41) % 3)';
  const rootId = `${base.comment} + 2 * g - 1`;

  const steps: [string, string][] = [
    [
      'users',
      `insert into users (id, ucode, nick, avatar, intro, created_at)
       select ${base.user} + g, 'bench-' || (${base.user} + g), '学员' || (${base.user} + g), '/img/' || md5('avatar' || g), '',
              timestamptz '2024-01-01' + g * interval '1 minute'
       from generate_series(1, ${userCount}) g`,
    ],
    [
      'topics',
      `insert into topics (id, name, intro)
       select ${base.topic} + g, '学习话题' || (${base.topic} + g), '一起聊聊第 ' || g || ' 个话题'
       from generate_series(1, ${topicCount}) g`,
    ],
    [
      'posts',
      // Each post's search document as post/add writes it (migration 0010_search), from the row made.
      `insert into posts (id, user_id, content, is_good, like_count, comment_count, created_at,
                          channel_ids, topic_ids, attach, has_vote, search)
       select made.*, post_search_document(made.content, made.topic_ids, made.attach) from (
       select id, ${U('p.h')},
              '第 ' || g || ' 条动态：' || substr(repeat('今天把分布式系统的一致性协议又复习了一遍，Raft 的日志复制和选主过程终于理清楚了。', 6), 1, 20 + (h % 160))
                || ' https://time.geekbang.org/column/article/' || (h % 100000) as content,
              g % 20 = 0, ${likeCount}, ${commentCount},
              now() - (${n} - g) * interval '10 seconds',
              array(select ${channelOf('m')} from generate_series(0, ${channelsOfPost} - 1) m order by 1),
              case when ${hasTopic} then array[${topicOf}] else '{}' end as topic_ids,
              ${attach} as attach, ${hasVote}
       from ${P} p cross join ${CH} ch) made`,
    ],
    [
      'post_channels',
      `insert into post_channels (post_id, channel_id)
       select p.id, ${channelOf('m')}
       from ${P} p cross join ${CH} ch cross join lateral generate_series(0, ${channelsOfPost} - 1) m`,
    ],
    [
      'post_topics',
      `insert into post_topics (post_id, topic_id)
       select id, ${topicOf} from ${P} p where ${hasTopic}`,
    ],
    [
      'post_images',
      `insert into post_images (post_id, url, width, height, sort)
       select p.id, ${pictureUrl}, ${pictureWidth}, ${pictureHeight}, s
       from ${P} p cross join lateral generate_series(0, p.h % 3) s
       where ${hasImages}`,
    ],
    [
      'code_snippets',
      `insert into code_snippets (uuid, post_id, language, title, code, sort)
       select ${codeUuid}, id, ${codeLanguage}, ${codeTitle}, ${codeText}, 0
       from ${P} p where ${hasCode}`,
    ],
    [
      'votes',
      `insert into votes (id, post_id, title, multiple, end_time, total)
       select ${base.vote} + g, id, '你更常用哪种方式学习？', h % 4 = 0,
              case when h % 2 = 0 then null else timestamptz '2036-01-01' end, ${voterCount}
       from ${P} p where ${hasVote}`,
    ],
    [
      'vote_options',
      `insert into vote_options (id, vote_id, text, sort)
       select ${base.option} + 4 * g + k, ${base.vote} + g, '选项 ' || (k + 1), k
       from ${P} p cross join lateral generate_series(0, ${optionCount} - 1) k
       where ${hasVote}`,
    ],
    [
      'vote_records',
      `insert into vote_records (vote_id, user_id, option_id, created_at)
       select ${base.vote} + g, ${U('h + r')}, ${base.option} + 4 * g + ((h / 23 + r) % ${optionCount}), now()
       from ${P} p cross join lateral generate_series(0, ${voterCount} - 1) r
       where ${hasVote}`,
    ],
    [
      'comments',
      `insert into comments (id, post_id, user_id, root_id, reply_user_id, content, like_count, reply_count, created_at)
       select ${rootId}, id, ${U('h / 29')}, null, null, '写得很清楚，收藏了。第 ' || g || ' 条评论',
              ((h / 31) % 3 = 0)::int, (${commentCount} = 2)::int, now() - (${n} - g) * interval '10 seconds' + interval '1 minute'
       from ${P} p where ${commentCount} >= 1
       union all
       select ${rootId} + 1, id, ${U('h / 43')}, ${rootId}, ${U('h / 29')}, '同意，补充一点：日志要先落盘再应答。',
              0, 0, now() - (${n} - g) * interval '10 seconds' + interval '2 minutes'
       from ${P} p where ${commentCount} = 2`,
    ],
    [
      'likes',
      `insert into likes (user_id, target_type, target_id, created_at)
       select ${U('h + j')}, 'post', id, now() from ${P} p cross join lateral generate_series(0, ${likeCount} - 1) j
       union all
       select ${U('h / 37')}, 'comment', ${rootId}, now() from ${P} p where ${commentCount} >= 1 and (h / 31) % 3 = 0`,
    ],
    [
      'counters',
      `with per_user as (
         select user_id, count(*) as posts, sum(like_count) as likes from posts where id > ${base.post} group by user_id),
       per_user_comments as (
         select user_id, sum(like_count) as likes from comments where id > ${base.comment} group by user_id)
       update users u set post_count = u.post_count + coalesce(p.posts, 0),
                          like_count = u.like_count + coalesce(p.likes, 0) + coalesce(c.likes, 0)
       from users x
       left join per_user p on p.user_id = x.id
       left join per_user_comments c on c.user_id = x.id
       where u.id = x.id and x.id > ${base.user}`,
    ],
    [
      'channel and topic counts',
      `update channels c set post_count = c.post_count + k.n
       from (select channel_id, count(*) as n from post_channels where post_id > ${base.post} group by channel_id) k
       where c.id = k.channel_id;
       update topics t set post_count = t.post_count + k.n
       from (select topic_id, count(*) as n from post_topics where post_id > ${base.post} group by topic_id) k
       where t.id = k.topic_id;
       update vote_options o set count = k.n
       from (select option_id, count(*) as n from vote_records where vote_id > ${base.vote} group by option_id) k
       where o.id = k.option_id`,
    ],
    [
      // Each poll's card on its post's row (migration 0016_poll_cards), made here since the triggers that keep it may be skipped.
      'poll cards',
      `update posts p set vote_card = poll_card(v.id) from votes v where v.id > ${base.vote} and p.id = v.post_id`,
    ],
    [
      'sequences',
      `select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users));
       select setval(pg_get_serial_sequence('posts', 'id'), (select max(id) from posts));
       select setval(pg_get_serial_sequence('topics', 'id'), (select max(id) from topics));
       select setval(pg_get_serial_sequence('comments', 'id'), (select max(id) from comments));
       select setval(pg_get_serial_sequence('votes', 'id'), (select max(id) from votes));
       select setval(pg_get_serial_sequence('vote_options', 'id'), (select max(id) from vote_options))`,
    ],
  ];

  if (canSkipTriggers) await runner.query('set session_replication_role = replica');
  try {
    for (const [name, text] of steps) {
      const t0 = performance.now();
      for (const statement of text.split(/;\n\s*/)) await runner.query(statement);
      options.onStep?.(name, performance.now() - t0);
    }
  } finally {
    if (canSkipTriggers) await runner.query('set session_replication_role = default');
  }
  const t0 = performance.now();
  // Fresh statistics for the planner and a visibility map for index-only scans, as a live
  // database has them.
  await runner.query('vacuum analyze');
  options.onStep?.('vacuum analyze', performance.now() - t0);

  const summary = {
    comments: await scalar(runner, `select count(*) from comments where id > ${base.comment}`),
    likes: await scalar(runner, `select count(*) from likes l where l.user_id > ${base.user}`),
    votes: await scalar(runner, `select count(*) from votes where id > ${base.vote}`),
    voteRecords: await scalar(runner, `select count(*) from vote_records where vote_id > ${base.vote}`),
  };
  return {
    posts: n,
    users: userCount,
    topics: topicCount,
    ...summary,
    firstPostId: base.post + 1,
    lastPostId: base.post + n,
    firstUserId: firstUser,
    ms: performance.now() - started,
  };
}
