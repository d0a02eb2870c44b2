/**
 * Demo data: a believable learning community of a paid learning platform (channels, users,
 * posts with topics, images, code snippets and votes, comments, likes, follows, notes, the
 * sidebar's explore items and the race_medals config).
 *
 * Deterministic: every choice comes from a fixed-seed PRNG and every time from a fixed base
 * time, so two seeded databases are identical row for row (tests compare digests). Explicit
 * ids are inserted (id order = time order for posts and comments) and the sequences are moved
 * past them at the end. Every denormalised counter is computed here and inserted with its row;
 * tests/api/seed.test.ts recounts them all.
 *
 * Counter definitions (the services keep the same ones):
 * - posts.like_count: likes(target_type 'post'); posts.comment_count: all comments of the post
 *   (top-level and replies).
 * - comments.like_count: likes(target_type 'comment'); comments.reply_count: comments whose
 *   root_id is this comment.
 * - users.follower_count / following_count: user_follows rows as followee / follower;
 *   users.post_count: posts written; users.like_count: likes received on the user's posts
 *   and comments.
 * - channels.follower_count: channel_follows; channels.post_count: post_channels.
 * - topics.post_count: post_topics.
 * - votes.total: distinct voters; vote_options.count: vote_records of the option.
 */
import { createHash } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';
import {
  channelCategories,
  channelFollows,
  channels,
  codeSnippets,
  comments,
  configItems,
  exploreItems,
  images,
  likes,
  notes,
  postChannels,
  postImages,
  posts,
  postTopics,
  topics,
  userFollows,
  users,
  voteOptions,
  voteRecords,
  votes,
} from './schema.ts';

/** Rows inserted per table. */
export interface SeedSummary {
  users: number;
  channelCategories: number;
  channels: number;
  channelFollows: number;
  userFollows: number;
  topics: number;
  posts: number;
  postChannels: number;
  postTopics: number;
  images: number;
  postImages: number;
  codeSnippets: number;
  votes: number;
  voteOptions: number;
  voteRecords: number;
  comments: number;
  likes: number;
  notes: number;
  exploreItems: number;
  configItems: number;
}

export interface SeedOptions {
  /**
   * The "now" of the demo: the newest post is shortly before it. Fixed by default so that
   * seeding is deterministic; pass another date for a fresh-looking demo.
   */
  now?: Date;
}

/** 2026-11-20 12:00 in Beijing (UTC+8). */
export const SEED_NOW = new Date(Date.UTC(2026, 10, 20, 4, 0, 0));
export const SEED_PRNG_SEED = 20_261_120;
export const DEMO_USER_CELLPHONE = '13800000000';
export const POST_COUNT = 520;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BEIJING_OFFSET = 8 * HOUR;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** mulberry32: [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return at(items, Math.floor(this.next() * items.length));
  }
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= at(weights, i);
      if (r < 0) return at(items, i);
    }
    return at(items, items.length - 1);
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const a = at(out, i);
      out[i] = at(out, j);
      out[j] = a;
    }
    return out;
  }
  /** k distinct items (all of them when k >= length). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, k));
  }
  hex(length: number): string {
    let s = '';
    while (s.length < length) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'.charAt(parseInt(h[16] ?? '0', 16) & 3);
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

function at<T>(items: readonly T[], index: number): T {
  const v = items[index];
  if (v === undefined) throw new Error(`seed: index ${index} out of range (${items.length})`);
  return v;
}

function imageId(key: string): string {
  return createHash('sha256').update(`seed-image:${key}`).digest('hex').slice(0, 32);
}

// ---------------------------------------------------------------------------------------------
// Content

interface CategoryDef {
  name: string;
  channels: { name: string; intro: string }[];
}

const CATEGORIES: CategoryDef[] = [
  {
    name: '后端',
    channels: [
      { name: 'Java 技术栈', intro: 'JVM、Spring、并发编程，Java 工程师的日常交流' },
      { name: 'Go 语言', intro: 'Go 语法、并发模型、工程实践与性能调优' },
      { name: '数据库', intro: 'MySQL、PostgreSQL、Redis 与存储系统的原理和踩坑' },
      { name: '架构设计', intro: '分布式系统、微服务、高可用与系统设计' },
      { name: '云原生', intro: 'Kubernetes、容器、Service Mesh 与 DevOps 实践' },
    ],
  },
  {
    name: '前端',
    channels: [
      { name: '前端开发', intro: 'HTML/CSS/JavaScript、浏览器原理与前端工程化' },
      { name: 'React 与 Vue', intro: '框架原理、状态管理与组件设计' },
      { name: '移动开发', intro: 'iOS、Android、鸿蒙与跨端方案' },
    ],
  },
  {
    name: 'AI',
    channels: [
      { name: '大模型应用', intro: 'Prompt、RAG、Agent 与大模型落地实践' },
      { name: '机器学习', intro: '算法、深度学习、数学基础与论文精读' },
      { name: 'AI 编程', intro: '用 AI 写代码：编程助手、代码评审与效率提升' },
    ],
  },
  {
    name: '职场',
    channels: [
      { name: '职场成长', intro: '晋升、沟通、时间管理与职业规划' },
      { name: '面试求职', intro: '面经、简历、算法题与 offer 选择' },
      { name: '技术管理', intro: '带团队、项目管理与技术决策' },
    ],
  },
  {
    name: '读书与学习',
    channels: [
      { name: '读书会', intro: '一起读书：技术经典与人文好书' },
      { name: '算法打卡', intro: '每日一题，一起刷算法' },
    ],
  },
];

/** Channel ids follow the order above: 1 Java ... 16 算法打卡. */
const CH = {
  java: 1,
  go: 2,
  db: 3,
  arch: 4,
  cloud: 5,
  fe: 6,
  react: 7,
  mobile: 8,
  llm: 9,
  ml: 10,
  aicode: 11,
  career: 12,
  interview: 13,
  manage: 14,
  books: 15,
  algo: 16,
} as const;

const TOPICS: { name: string; intro: string; channels: number[] }[] = [
  { name: '每日一课打卡', intro: '每天学一点，记录你的学习进度和收获。', channels: [1, 2, 3, 4, 5, 6, 7, 9, 10, 16] },
  { name: '我的学习计划', intro: '晒出你的学习计划，让大家一起监督。', channels: [12, 13, 15, 16, 9] },
  { name: '大模型落地实践', intro: 'RAG、Agent、微调……分享大模型在真实业务中的落地经验。', channels: [9, 11, 10] },
  { name: '面试题分享', intro: '面过的题、踩过的坑，帮后来人少走弯路。', channels: [13, 1, 2, 3, 16] },
  { name: 'MySQL踩坑记', intro: '索引、锁、主从、慢查询，那些年我们踩过的 MySQL 坑。', channels: [3] },
  { name: 'Go并发编程', intro: 'goroutine、channel、sync 包与并发模式。', channels: [2] },
  { name: '前端性能优化', intro: '首屏、渲染、包体积、运行时性能，一起把页面变快。', channels: [6, 7, 8] },
  { name: '读书笔记', intro: '好书共读，分享你的摘录和思考。', channels: [15, 12, 4] },
  { name: '算法每日一题', intro: '坚持每天一道题，积少成多。', channels: [16, 13] },
  { name: '技术人成长', intro: '从工程师到专家、从专家到管理者，聊聊成长路上的思考。', channels: [12, 14] },
  { name: '程序员的副业', intro: '写作、开源、课程、独立开发……聊聊主业之外的可能性。', channels: [12] },
  { name: '架构师之路', intro: '系统设计、技术选型与架构演进的实战经验。', channels: [4, 5, 1] },
  { name: 'Rust学习笔记', intro: '所有权、生命周期、异步，一起啃下 Rust。', channels: [2, 4] },
  { name: '云原生实战', intro: 'Kubernetes、可观测性、CI/CD 的一线经验。', channels: [5] },
];

const BODIES: Record<number, string[]> = {
  [CH.java]: [
    '线上服务 Full GC 频繁，排查了一下午，最后发现是某个本地缓存没有设置上限，老年代被慢慢撑满。教训：任何缓存都要有容量上限和过期策略。',
    '终于把 G1 和 ZGC 的区别搞明白了：G1 按 Region 回收、追求可预测的停顿；ZGC 用染色指针和读屏障，停顿时间基本与堆大小无关。JDK 21 的分代 ZGC 值得一试。',
    '虚拟线程上线三个月的体会：IO 密集的接口吞吐确实上去了，但要小心 synchronized 导致的 pinning，我们把几处热点锁换成了 ReentrantLock。',
    'Spring Boot 3 升级踩坑合集：javax 到 jakarta 的包名迁移、Hibernate 6 的 SQL 变化，还有几个老依赖不兼容。建议先挑一个小服务试水。',
    '面试被问 ConcurrentHashMap 为什么在 JDK 8 放弃了分段锁，我答了 CAS + synchronized 锁桶头节点，面试官追问扩容时的并发迁移，没答好，回来补课。',
    '第三遍读《深入理解 Java 虚拟机》，每次都有新收获。这次重点看了类加载和双亲委派，终于理解了 SPI 为什么要用线程上下文类加载器。',
    '用 JFR + JMC 做了一次性能分析，看长时间的内存分配热点比 arthas 更方便。推荐给还没用过的同学。',
    '记录一个坑：@Transactional 在同一个类里自调用不生效，因为调用没有经过代理。解决办法是拆到另一个 Bean，或者注入自身的代理。',
  ],
  [CH.go]: [
    'Go 的 range over func 终于在项目里用上了，写迭代器舒服多了。但团队里有人觉得可读性变差，大家怎么看？',
    '排查了一个 goroutine 泄漏：HTTP 请求没有设置超时，下游卡住之后 goroutine 越积越多。现在所有出站请求都统一带上 context 超时。',
    'sync.Pool 不是万能的，对象很小的时候反而可能更慢。今天压测对比了一下，优化还是要用数据说话。',
    '用 pprof 找到一个热点：大量 fmt.Sprintf 拼接日志 key。换成 strconv 加预分配之后，CPU 降了 15%。',
    '终于搞懂了 GMP 调度模型：P 的数量决定并行度，M 阻塞在系统调用时 P 会交给别的 M，work stealing 让各个 P 的负载更均衡。',
    'errgroup 真好用：并发请求多个下游，任意一个失败就取消其他的，几行代码搞定。',
    'Go 的接口是隐式实现的，刚从 Java 转过来很不习惯。现在觉得「接受接口，返回结构体」这个原则很有道理。',
    '给团队写了一份 Go 代码规范：错误必须处理或显式忽略、库代码里禁止 panic、context 永远是第一个参数。欢迎补充。',
  ],
  [CH.db]: [
    'MySQL 在 RR 隔离级别下为什么还会有幻读？今天把间隙锁和 next-key lock 又捋了一遍，区分当前读和快照读是关键。',
    '一条慢查询从 3 秒优化到 20 毫秒：调整联合索引的列顺序，再用覆盖索引避免回表。EXPLAIN 里 Using filesort 消失的那一刻真爽。',
    'Redis 删除大 key 导致主线程卡顿，改用 UNLINK 异步删除后恢复正常。线上一定要定期扫描大 key。',
    '从 MySQL 迁到 PostgreSQL 的第三个月：JSONB、部分索引、窗口函数都很香，但连接数得靠 PgBouncer 管好。',
    '学完 B+ 树这一讲，终于明白为什么推荐自增主键：随机主键会导致页分裂，写放大很严重。',
    '分享一个排查死锁的思路：先 SHOW ENGINE INNODB STATUS 看最近一次死锁，再对照两个事务的加锁顺序，多数是更新顺序不一致。',
    '缓存和数据库的一致性，我们最后选了「先更新数据库，再删缓存」+ 延迟双删 + binlog 兜底。没有银弹，只有取舍。',
    'EXPLAIN ANALYZE 是个好东西。估算行数和实际行数差很多的时候，十有八九是统计信息过期了。',
  ],
  [CH.arch]: [
    '画了一下我们系统的架构图，发现单点比想象中多：配置中心、注册中心，还有一个老的定时任务服务。下个季度重点治理。',
    '分布式事务到底怎么选？我们的经验是能不用就不用，本地消息表 + 最终一致性能解决 80% 的场景。',
    '限流、熔断、降级三件套，今天给新同学讲了一遍，顺便把网关的令牌桶配置整理成了文档。',
    '读完《数据密集型应用系统设计》第五章「复制」，单主、多主、无主复制的取舍讲得太清楚了，强烈推荐。',
    '系统设计题：设计一个短链服务。我的思路是发号器 + 62 进制编码 + 热点缓存，大家有更好的方案吗？',
    '微服务拆得太细也是灾难。我们把十几个小服务合并回了三个，部署和排障都轻松多了。',
    '幂等设计的几种做法：唯一索引、token 机制、状态机。重试无处不在，所有写接口都应该考虑幂等。',
    '复盘一次线上事故：一个下游调用没设超时，线程池被打满，引发级联故障。超时、隔离、快速失败，缺一不可。',
  ],
  [CH.cloud]: [
    'K8s 里 Pod 一直 CrashLoopBackOff，最后发现是 liveness 探针超时太短，应用还没启动完就被杀了。startupProbe 了解一下。',
    '把 CI 从 Jenkins 迁到了 GitLab CI，流水线即代码，review 起来方便多了。',
    'requests 和 limits 怎么设？我们的做法是先压测拿到基线，CPU 不设 limit 避免被节流，内存 limit 等于 request。',
    '学习 Service Mesh 的第一周：sidecar 模式确实把治理逻辑解耦了，但资源开销和排障复杂度也上来了。',
    '用 Helm 管理了二十多个服务的部署，values 按环境维护，终于告别手改 yaml。',
    '可观测性三件套：日志、指标、链路追踪。最近接入了 OpenTelemetry，一个 trace 串起所有服务，排障效率翻倍。',
    '镜像瘦身：多阶段构建 + distroless 基础镜像，从 900MB 降到 40MB，拉取速度快太多了。',
    'HPA 按 CPU 扩容不够灵敏，改成按 QPS 自定义指标之后，大促期间稳多了。',
  ],
  [CH.fe]: [
    '首屏优化记录：路由懒加载 + 图片懒加载 + 关键 CSS 内联，LCP 从 3.8s 降到 1.6s。',
    '终于搞清楚了事件循环：宏任务、微任务和渲染时机。requestAnimationFrame 在下一次重绘之前执行，别和微任务搞混。',
    'CSS 容器查询真香，组件可以根据所在容器的宽度调整布局，再也不用层层传 props 了。',
    '把项目从 webpack 迁到 Vite，冷启动从 40 秒到 2 秒，开发体验质的提升。',
    'TypeScript 类型体操做多了会上瘾，但业务代码还是要克制，可读性第一。',
    '今天学了浏览器的渲染流水线：DOM、CSSOM、布局、分层、绘制、合成。transform 动画不触发重排的原因终于懂了。',
    'PWA 离线缓存踩坑：Service Worker 更新后旧缓存没清，用户看到的一直是旧版本。要记得处理 activate 事件和缓存版本号。',
    '前端监控上线了：错误捕获、性能指标、白屏检测。数据一出来，发现低端安卓机的白屏率高得吓人。',
  ],
  [CH.react]: [
    'React 19 的 Actions 和 useOptimistic 用起来很顺，表单提交的 loading 状态和乐观更新少写了好多样板代码。',
    'Vue 3 的响应式原理：Proxy 拦截 get 收集依赖，set 触发更新。对比 Vue 2 的 defineProperty，数组和新增属性都不用特殊处理了。',
    'useEffect 依赖数组写错导致无限请求，被 ESLint 的 exhaustive-deps 救了一命。这条规则不要随便关。',
    '状态管理选型：服务端数据交给 TanStack Query，客户端状态用 Zustand，Redux 已经很久没碰了。',
    '组件设计心得：受控和非受控都要支持的时候，参考 value / defaultValue 的模式，别自己发明。',
    'React Server Components 的文档看了三遍，还是有点懵，有没有讲得通俗的文章推荐？',
    '把一个列表页的渲染从 800ms 优化到 60ms：虚拟列表 + memo + 避免在 render 里创建新对象。',
    'Vue 和 React 写久了，发现本质差不多：都是状态驱动视图，只是心智模型不同。',
  ],
  [CH.mobile]: [
    '鸿蒙 ArkTS 上手一周，声明式 UI 和 SwiftUI、Compose 很像，迁移成本没有想象中高。',
    'Android 启动优化：延迟初始化 + 启动任务按有向无环图编排，冷启动从 1.8s 降到 900ms。',
    'iOS 的内存泄漏大多是循环引用，闭包里记得 [weak self]，Instruments 的 Leaks 工具很好用。',
    '跨端方案选型：Flutter、React Native 还是原生？我们的结论是看团队技能栈和对性能的要求。',
    'WebView 和原生通信踩坑：页面还没加载完就调用 postMessage，消息会丢。要等页面 ready 之后再通信。',
    'Jetpack Compose 的重组机制一定要吃透，不然很容易写出性能问题。remember 和 derivedStateOf 是好朋友。',
  ],
  [CH.llm]: [
    'RAG 落地三个月的经验：切分策略比换模型更重要。按语义段落切分 + 适当重叠，召回率提升明显。',
    'Prompt 写得好不如评测做得好。我们建了一个 200 条的评测集，每次改 prompt 都跑一遍，效果一目了然。',
    'Agent 的工具调用稳定性是个大问题。加了参数校验和失败重试之后，成功率从 70% 提到了 95%。',
    '向量数据库选型对比了几家，数据量不大的话 PostgreSQL + pgvector 完全够用，运维成本最低。',
    '用大模型做代码评审的实验：能发现不少低级问题，但业务逻辑上的错误还是得靠人。',
    '上下文窗口越来越长，但「把所有东西都塞进去」并不是好主意，噪音会拉低回答质量。',
    '今天学了 function calling 的原理：本质上是让模型输出结构化的调用意图，真正的执行还是在我们这边。',
    '大模型幻觉怎么治？检索增强、引用出处、允许模型说「不知道」，再加上人工抽检。',
  ],
  [CH.ml]: [
    '从零推导了一遍反向传播，链式法则写满了两页纸，终于不再是黑盒了。',
    'Transformer 的自注意力：Q、K、V 三个矩阵，缩放点积之后做 softmax 加权。多头就是在多组子空间里并行学习。',
    '特征工程依然重要。同样的模型，特征做得好，AUC 能高好几个点。',
    '过拟合的几种处理：更多数据、正则化、dropout、早停。今天的实验里早停最有效。',
    '线性代数是真正的基本功，推荐把矩阵求导那部分好好补一补。',
    '梯度消失和梯度爆炸的原因，以及残差连接为什么能缓解，今天终于想通了。',
  ],
  [CH.aicode]: [
    '用 AI 写单测效率很高，但它生成的断言有时是「照着实现写」的，测试的意义还得自己把关。',
    'AI 编程助手用了一个月，最大的变化是重构敢下手了，改完让它帮忙检查所有调用点。',
    'AI 生成的代码一定要读懂再合并。上周就有同事合进来一段有并发问题的代码。',
    '给 AI 写清楚上下文和约束，比反复让它重写有效得多。把需求拆成小步骤的清单，效果最好。',
    '用 AI 读陌生代码库真香：先让它画出模块关系，再逐个问关键流程，半天就能上手。',
    'AI 时代程序员的核心竞争力：定义问题、拆解问题、判断结果对不对。写代码本身反而没那么稀缺了。',
  ],
  [CH.career]: [
    '工作第五年的反思：技术深度够了，但影响力不够。下半年要多写文档、多做分享。',
    '向上管理不是拍马屁，是让老板知道你在做什么、遇到了什么困难、需要什么支持。',
    '今天的一对一，leader 说我「做事靠谱但太闷」，有点扎心，但确实是需要改进的地方。',
    '时间管理的小技巧：上午两个小时不看 IM，专心写代码，效率高太多。',
    '晋升答辩准备中，最难的是把做过的事讲成一个有逻辑的故事：背景、挑战、方案、结果。',
    '35 岁焦虑？与其焦虑不如行动：持续学习、积累作品、保持健康。',
    '跳槽还是留下？我给自己列了三个问题：能学到东西吗？能做成事吗？钱给够了吗？',
    '写周报的意义不是给别人看，而是逼自己复盘这一周到底产出了什么。',
  ],
  [CH.interview]: [
    '面经分享：某大厂后端二面，问了 Redis 持久化、MySQL 索引、手写 LRU，还有一道系统设计：设计一个秒杀系统。',
    '简历里的项目经历怎么写？不要罗列技术栈，要写清楚你解决了什么问题、带来了什么结果，最好有数字。',
    '秋招结束，拿了三个 offer，纠结中：大厂核心部门、独角兽，还是国企？',
    '算法题刷了 300 道，终于找到了节奏：按专题刷，每道题总结模板。',
    '面试官问「你有什么想问我的」，我一般会问团队在做什么、技术挑战是什么、怎么评价新人做得好。',
    '被问到「你最大的缺点是什么」，大家都怎么回答？',
    '今天面了一个候选人，基础很扎实，但项目讲不清楚。把事情讲清楚也是一种能力。',
    '社招面试最看重的还是项目深度，被追问三层就露馅的项目还是别写了。',
  ],
  [CH.manage]: [
    '从工程师转管理的第一年，最大的挑战是接受「自己不写代码也能创造价值」。',
    '技术债怎么还？我们每个迭代留 20% 的时间做重构，并且和产品提前约定好。',
    'Code Review 的文化比工具更重要：对事不对人、小步提交、及时反馈。',
    '招人比想象中难，宁缺毋滥。一个不合适的人对团队的伤害很大。',
    '技术方案评审，我现在会要求写清楚：不做会怎样、有哪些备选、为什么选这个。',
    '团队的 oncall 轮值制度上线了，配合 runbook，半夜被叫醒的次数少了很多。',
  ],
  [CH.books]: [
    '这个月读完了《人月神话》。几十年前的书，今天读依然振聋发聩：向进度落后的项目中增加人手，只会让进度更加落后。',
    '推荐《程序员修炼之道》：破窗理论、DRY、正交性，每一条都值得反复读。',
    '《深入理解计算机系统》啃到第六章「存储器层次结构」，原来缓存友好的代码差距这么大。',
    '读《金字塔原理》：结论先行、以上统下、归类分组、逻辑递进。写文档和做汇报都用得上。',
    '读书会这期选的是《代码整洁之道》，欢迎在评论区分享你印象最深的一条。',
    '《重构》第二版用 JavaScript 举例，比第一版更好读了，推荐前端同学看。',
    '非技术书推荐：《置身事内》，理解中国经济和地方财政的好书。',
    '今年的目标是读 24 本书，目前进度 19/24，冲刺！',
  ],
  [CH.algo]: [
    '今日一题：接雨水。双指针的思路太妙了：左右两边谁矮谁先走。',
    '动态规划的套路：定义状态、找转移方程、确定初始值和遍历顺序。今天做了三道背包问题。',
    '单调栈专题：下一个更大元素、柱状图中最大的矩形，核心都是维护一个单调的栈。',
    '回溯就是暴力搜索 + 剪枝：全排列、子集、组合总和，模板都差不多。',
    '并查集今天终于手写出来了，路径压缩 + 按秩合并，朋友圈问题一次通过。',
    '滑动窗口：最小覆盖子串调了一个小时，边界条件太容易写错了。',
    '二分查找的边界问题：左闭右开还是左闭右闭，统一一种写法就不会乱。',
    '今天复习了拓扑排序，课程表问题用 BFS + 入度表，思路非常清晰。',
  ],
};

const COLUMNS: Record<number, string[]> = {
  [CH.java]: ['深入拆解 Java 虚拟机', 'Java 并发编程实战'],
  [CH.go]: ['Go 语言核心 36 讲', 'Go 并发编程实战课'],
  [CH.db]: ['MySQL 实战 45 讲', 'Redis 核心技术与实战'],
  [CH.arch]: ['从 0 开始学架构', '分布式协议与算法实战'],
  [CH.cloud]: ['深入剖析 Kubernetes', '云原生基础架构实战课'],
  [CH.fe]: ['浏览器工作原理与实践', '重学前端'],
  [CH.react]: ['React 实战进阶 45 讲', '玩转 Vue 3 全家桶'],
  [CH.mobile]: ['Android 开发高手课', '鸿蒙应用开发实战'],
  [CH.llm]: ['AI 大模型应用开发实战营', 'RAG 快速开发实战'],
  [CH.ml]: ['机器学习 40 讲', '深度学习应用实践 60 讲'],
  [CH.aicode]: ['AI 编程实战课'],
  [CH.career]: ['10x 程序员工作法', '职场求生攻略'],
  [CH.interview]: ['数据结构与算法之美', '算法面试通关 40 讲'],
  [CH.manage]: ['技术管理实战 36 讲'],
  [CH.books]: ['左耳听风', '程序员的个人财富课'],
  [CH.algo]: ['数据结构与算法之美'],
};

const TAKEAWAYS = [
  '收获很大，很多以前模糊的概念清楚了。',
  '这一讲的课后思考题很有意思，我在留言区写了自己的答案。',
  '老师举的例子很贴近实际工作，马上就能用上。',
  '笔记已经整理进我的知识库了。',
  '有一处没太看懂，明天再回看一遍。',
  '结合工作中遇到的问题来看，理解深刻多了。',
  '边看边动手敲了一遍，比只看印象深得多。',
  '这一讲信息量很大，准备周末再精读一遍。',
];

const CLOSERS = [
  '',
  '',
  '',
  '',
  '大家怎么看？',
  '欢迎交流～',
  '有同样经历的同学吗？',
  '继续加油 💪',
  '先记下来，回头再整理。',
  '求推荐相关资料！',
  '与君共勉。',
];

const IMAGE_LABELS: Record<number, string[]> = {
  [CH.java]: ['GC 日志分析', 'JVM 内存模型', '线程池参数'],
  [CH.go]: ['GMP 调度', 'pprof 火焰图', '并发模式'],
  [CH.db]: ['慢查询优化', 'B+ 树索引', '执行计划'],
  [CH.arch]: ['系统架构图', '限流熔断', '数据流向'],
  [CH.cloud]: ['集群拓扑', '监控大盘', '流水线'],
  [CH.fe]: ['性能指标', '渲染流水线', '首屏优化'],
  [CH.react]: ['组件结构', '状态流转', 'Hooks 笔记'],
  [CH.mobile]: ['启动耗时', '页面结构', '跨端对比'],
  [CH.llm]: ['RAG 流程', 'Agent 架构', '评测结果'],
  [CH.ml]: ['损失曲线', '网络结构', '公式推导'],
  [CH.aicode]: ['提效对比', '工作流', 'AI 结对'],
  [CH.career]: ['年度复盘', '成长路线', '周计划'],
  [CH.interview]: ['面经整理', '知识图谱', 'offer 对比'],
  [CH.manage]: ['团队分工', '迭代看板', 'OKR'],
  [CH.books]: ['读书摘录', '本月书单', '书桌一角'],
  [CH.algo]: ['解题思路', '打卡日历', '刷题统计'],
};

interface SnippetDef {
  channel: number;
  language: string;
  title: string;
  text: string;
  code: string;
}

const SNIPPETS: SnippetDef[] = [
  {
    channel: CH.go,
    language: 'go',
    title: 'worker pool',
    text: '分享一个常用的 worker pool 写法：固定数量的 goroutine 从 channel 取任务，errgroup 负责等待和出错时取消。',
    code: `func process(ctx context.Context, jobs []Job, workers int) error {
	ch := make(chan Job)
	g, ctx := errgroup.WithContext(ctx)
	for i := 0; i < workers; i++ {
		g.Go(func() error {
			for job := range ch {
				if err := job.Run(ctx); err != nil {
					return err
				}
			}
			return nil
		})
	}
	go func() {
		defer close(ch)
		for _, j := range jobs {
			select {
			case ch <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	return g.Wait()
}`,
  },
  {
    channel: CH.go,
    language: 'go',
    title: '带超时的 HTTP 请求',
    text: '所有出站请求都应该带超时，这是我们现在的统一写法：',
    code: `func fetch(ctx context.Context, url string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", url, err)
	}
	defer resp.Body.Close()
	return io.ReadAll(io.LimitReader(resp.Body, 1<<20))
}`,
  },
  {
    channel: CH.java,
    language: 'java',
    title: '双重检查单例',
    text: '面试高频：双重检查锁的单例，volatile 不能少，防止指令重排拿到半初始化的对象。',
    code: `public final class Config {
    private static volatile Config instance;

    private Config() {}

    public static Config getInstance() {
        if (instance == null) {
            synchronized (Config.class) {
                if (instance == null) {
                    instance = new Config();
                }
            }
        }
        return instance;
    }
}`,
  },
  {
    channel: CH.java,
    language: 'java',
    title: 'CompletableFuture 并行调用',
    text: '用 CompletableFuture 并行调用三个下游，整体耗时取决于最慢的那个：',
    code: `CompletableFuture<User> user = CompletableFuture.supplyAsync(() -> userClient.get(id), pool);
CompletableFuture<List<Order>> orders = CompletableFuture.supplyAsync(() -> orderClient.list(id), pool);
CompletableFuture<Coupon> coupon = CompletableFuture.supplyAsync(() -> couponClient.best(id), pool)
        .completeOnTimeout(Coupon.NONE, 200, TimeUnit.MILLISECONDS);

Profile profile = CompletableFuture.allOf(user, orders, coupon)
        .thenApply(v -> new Profile(user.join(), orders.join(), coupon.join()))
        .get(1, TimeUnit.SECONDS);`,
  },
  {
    channel: CH.db,
    language: 'sql',
    title: '每个分组取前 3 名',
    text: '窗口函数求每个分组的 Top N，比子查询清爽多了：',
    code: `SELECT *
FROM (
  SELECT
    user_id,
    course_id,
    study_minutes,
    ROW_NUMBER() OVER (PARTITION BY course_id ORDER BY study_minutes DESC) AS rn
  FROM study_log
  WHERE created_at >= CURRENT_DATE - INTERVAL '7 days'
) t
WHERE rn <= 3
ORDER BY course_id, rn;`,
  },
  {
    channel: CH.db,
    language: 'sql',
    title: '覆盖索引',
    text: '这条查询加了联合索引之后不再回表，Extra 里只剩 Using index：',
    code: `ALTER TABLE orders ADD INDEX idx_user_status_time (user_id, status, created_at);

EXPLAIN
SELECT user_id, status, created_at
FROM orders
WHERE user_id = 42 AND status = 'PAID'
ORDER BY created_at DESC
LIMIT 20;`,
  },
  {
    channel: CH.llm,
    language: 'python',
    title: '文档切分',
    text: 'RAG 的文档切分，按段落切并保留重叠，分享一下我们的简化版实现：',
    code: `def split_text(text: str, chunk_size: int = 500, overlap: int = 80) -> list[str]:
    paragraphs = [p.strip() for p in text.split("\\n\\n") if p.strip()]
    chunks, current = [], ""
    for p in paragraphs:
        if len(current) + len(p) <= chunk_size:
            current = f"{current}\\n\\n{p}" if current else p
            continue
        if current:
            chunks.append(current)
        tail = current[-overlap:] if current else ""
        current = f"{tail}{p}"
    if current:
        chunks.append(current)
    return chunks`,
  },
  {
    channel: CH.ml,
    language: 'python',
    title: '梯度下降',
    text: '用 numpy 手写线性回归的梯度下降，理解原理最好的方式就是自己写一遍：',
    code: `import numpy as np

def fit(X: np.ndarray, y: np.ndarray, lr: float = 0.01, epochs: int = 1000):
    n, d = X.shape
    w, b = np.zeros(d), 0.0
    for _ in range(epochs):
        pred = X @ w + b
        err = pred - y
        w -= lr * (X.T @ err) / n
        b -= lr * err.mean()
    return w, b`,
  },
  {
    channel: CH.react,
    language: 'typescript',
    title: 'useDebounce',
    text: '一个简单好用的 useDebounce，搜索框必备：',
    code: `import { useEffect, useState } from 'react';

export function useDebounce<T>(value: T, delay = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}`,
  },
  {
    channel: CH.fe,
    language: 'javascript',
    title: '并发限制',
    text: '面试手写题：限制 Promise 并发数。核心是维护一个执行中的队列：',
    code: `async function runLimited(tasks, limit = 3) {
  const results = [];
  const running = new Set();
  for (const [i, task] of tasks.entries()) {
    const p = Promise.resolve()
      .then(task)
      .then((r) => (results[i] = r))
      .finally(() => running.delete(p));
    running.add(p);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
  return results;
}`,
  },
  {
    channel: CH.fe,
    language: 'typescript',
    title: '带重试的 fetch',
    text: '弱网环境下给 fetch 加上指数退避重试：',
    code: `export async function fetchWithRetry(url: string, init?: RequestInit, retries = 3): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url, init);
      if (res.status < 500 || attempt >= retries) return res;
    } catch (err) {
      if (attempt >= retries) throw err;
    }
    await new Promise((r) => setTimeout(r, 2 ** attempt * 200));
  }
}`,
  },
  {
    channel: CH.arch,
    language: 'rust',
    title: '所有权',
    text: '学 Rust 第二周，所有权和借用终于有点感觉了：',
    code: `fn longest<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.len() >= b.len() { a } else { b }
}

fn main() {
    let s1 = String::from("geek");
    let result;
    {
        let s2 = String::from("time");
        result = longest(s1.as_str(), s2.as_str());
        println!("longest: {result}");
    }
}`,
  },
  {
    channel: CH.cloud,
    language: 'bash',
    title: '批量重启异常 Pod',
    text: '值班小脚本：找出所有 CrashLoopBackOff 的 Pod 并删除重建。',
    code: `#!/usr/bin/env bash
set -euo pipefail
ns="\${1:-default}"
kubectl get pods -n "$ns" --no-headers \\
  | awk '$3 == "CrashLoopBackOff" {print $1}' \\
  | while read -r pod; do
      echo "restarting $pod"
      kubectl delete pod -n "$ns" "$pod" --wait=false
    done`,
  },
  {
    channel: CH.cloud,
    language: 'yaml',
    title: 'startupProbe',
    text: '启动慢的 Java 服务，加上 startupProbe 之后再也没有被 liveness 误杀：',
    code: `startupProbe:
  httpGet:
    path: /actuator/health
    port: 8080
  failureThreshold: 30
  periodSeconds: 5
livenessProbe:
  httpGet:
    path: /actuator/health/liveness
    port: 8080
  periodSeconds: 10
  timeoutSeconds: 2`,
  },
  {
    channel: CH.algo,
    language: 'cpp',
    title: '二分查找（左闭右开）',
    text: '二分查找统一用左闭右开的写法，再也不怕边界了：',
    code: `int lowerBound(const vector<int>& nums, int target) {
    int lo = 0, hi = nums.size();
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (nums[mid] < target) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}`,
  },
  {
    channel: CH.algo,
    language: 'python',
    title: '接雨水',
    text: '今日一题：接雨水，双指针解法，O(n) 时间 O(1) 空间。',
    code: `def trap(height: list[int]) -> int:
    left, right = 0, len(height) - 1
    left_max = right_max = water = 0
    while left < right:
        if height[left] < height[right]:
            left_max = max(left_max, height[left])
            water += left_max - height[left]
            left += 1
        else:
            right_max = max(right_max, height[right])
            water += right_max - height[right]
            right -= 1
    return water`,
  },
];

interface VoteDef {
  channel: number;
  title: string;
  intro: string;
  multiple: boolean;
  options: string[];
}

const VOTE_DEFS: VoteDef[] = [
  { channel: CH.db, title: '你们团队的主力数据库是？', intro: '做个小调查，看看大家都在用什么数据库。', multiple: false, options: ['MySQL', 'PostgreSQL', 'TiDB / OceanBase', '其他'] },
  { channel: CH.career, title: '明年最想深入学习的方向？', intro: '年底了，规划一下明年的学习重点，可多选。', multiple: true, options: ['大模型应用', '云原生', '前端工程化', '数据库内核'] },
  { channel: CH.aicode, title: '写代码时你用 AI 助手吗？', intro: '好奇大家的 AI 编程使用情况。', multiple: false, options: ['每天都用', '偶尔用用', '基本不用'] },
  { channel: CH.react, title: 'React 还是 Vue？', intro: '老问题了，看看社区里的比例。', multiple: false, options: ['React', 'Vue', '都用', '都不用'] },
  { channel: CH.career, title: '每天能坚持学习多久？', intro: '下班后还能学多久，说实话。', multiple: false, options: ['不到半小时', '半小时到 1 小时', '1 到 2 小时', '2 小时以上'] },
  { channel: CH.go, title: 'Go 的错误处理你能接受吗？', intro: 'if err != nil 写多了，大家什么感受？', multiple: false, options: ['习惯了，挺好', '太啰嗦', '期待新语法'] },
  { channel: CH.interview, title: '面试最怕哪一环？', intro: '准备跳槽的同学来说说。', multiple: true, options: ['算法题', '系统设计', '项目深挖', 'HR 面'] },
  { channel: CH.books, title: '今年读完了几本技术书？', intro: '读书会的年度小调查。', multiple: false, options: ['0 本', '1-3 本', '4-10 本', '10 本以上'] },
  { channel: CH.career, title: '你更喜欢哪种办公方式？', intro: '远程、混合还是坐班？', multiple: false, options: ['完全远程', '混合办公', '全在办公室'] },
  { channel: CH.algo, title: '你用什么语言刷题？', intro: '打卡群里的小统计。', multiple: false, options: ['Python', 'Java', 'C++', 'Go'] },
];

const COMMENT_TEXTS = [
  '学习了，感谢分享！',
  '收藏了，回头细看。',
  '说得太对了，我们团队也踩过同样的坑。',
  '请问有相关的资料推荐吗？',
  '写得很清楚，赞一个 👍',
  '同感，深有体会。',
  '这个思路不错，我回去试试。',
  '有个疑问：如果数据量再大一个数量级，这个方案还适用吗？',
  '总结得很到位。',
  '打卡，一起加油！',
  '我们的做法稍有不同，是先压测再定参数。',
  'mark 一下',
  '这个坑我也踩过，当时排查了两天……',
  '想请教一下具体是怎么实现的？',
  '有没有完整的代码可以参考？',
  '补充一点：记得加上监控告警。',
  '太真实了 😂',
  '已转给团队的同事。',
  '这篇值得加精！',
  '坚持就是胜利 💪',
  '和老师课上讲的对上了。',
  '不太同意，我觉得要看具体场景。',
  '能展开讲讲吗？',
  '感谢，解决了我的困惑。',
  '涨知识了',
  '我也在学这门课，一起交流～',
  '求后续更新',
  '第一次知道还可以这样',
  '细节满满，赞',
  '这个问题我们是用消息队列解耦的，供参考。',
];

const REPLY_TEXTS = [
  '谢谢支持！',
  '可以的，我整理一下发出来。',
  '是的，还是要看场景。',
  '哈哈，同是天涯沦落人。',
  '对，我补充到正文里了。',
  '好问题，我们当时是分库分表解决的。',
  '回头整理好资料发你。',
  '一起加油！',
  '有道理，学到了。',
  '我试过，效果还不错。',
  '这个确实没考虑到，感谢指出。',
  '同问',
  '+1',
  '已经更新了，看正文最后一段。',
];

const NOTE_TEXTS = [
  '《MySQL 实战 45 讲》第 3 讲：事务隔离。一致性视图在事务启动时创建，RR 下整个事务都用这个视图；RC 下每条语句都会重新创建。',
  '《MySQL 实战 45 讲》第 4 讲：索引。主键索引的叶子节点存整行数据，非主键索引的叶子节点存主键值，所以要回表。',
  'GMP：G 是 goroutine，M 是系统线程，P 是逻辑处理器。P 持有本地运行队列，空闲时从全局队列或其他 P 偷任务。',
  'Redis 持久化：RDB 是快照，恢复快但可能丢数据；AOF 记录写命令，everysec 最多丢一秒。生产一般两者结合。',
  'CAP：网络分区时只能在一致性和可用性之间二选一。BASE 是对可用性的妥协：基本可用、软状态、最终一致。',
  '浏览器渲染：解析 HTML 生成 DOM，解析 CSS 生成 CSSOM，合成渲染树，然后布局、分层、绘制、合成。',
  'Transformer：Attention(Q,K,V) = softmax(QK^T / sqrt(d_k))V。除以 sqrt(d_k) 是为了防止点积过大导致 softmax 梯度过小。',
  '《金字塔原理》：先说结论，再说理由；同一组的思想属于同一范畴；按时间、结构或重要性排序。',
  'K8s 探针：startupProbe 成功之前不会执行 liveness 和 readiness；readiness 失败只摘流量，不重启。',
  '动态规划四步：状态定义、转移方程、初始化、遍历顺序。先写出暴力递归，再加记忆化，最后改成递推。',
  '面试准备清单：项目三问（为什么做、怎么做、结果如何）、八股文按模块复习、每天两道算法题。',
  'RAG 调优顺序：先看召回（切分、向量模型、混合检索），再看排序（rerank），最后才是生成的 prompt。',
  '时间管理：每天早上写下最重要的三件事，先做最难的那件。',
  'JVM 调优：先确认问题（GC 日志、监控），再做假设，每次只改一个参数，对比前后数据。',
  '《人月神话》：没有银弹。概念完整性是系统设计中最重要的考虑因素。',
];

interface UserDef {
  nick: string;
  intro: string;
  student?: boolean;
  university?: boolean;
  /** Channels the user writes in and follows. */
  interests: number[];
  /** Relative posting activity. */
  activity: number;
}

const USERS: UserDef[] = [
  { nick: '极客小明', intro: '后端开发，正在学 Go 和分布式系统，欢迎交流。', interests: [2, 3, 4, 9], activity: 5 },
  { nick: '码农老王', intro: '十年 Java 老兵，喜欢折腾 JVM。', interests: [1, 4, 14], activity: 7 },
  { nick: '林间有风', intro: '前端工程师，关注性能和工程化。', interests: [6, 7], activity: 4 },
  { nick: '锈铁匠', intro: 'Rust 和系统编程爱好者。', interests: [2, 4, 16], activity: 3 },
  { nick: '前端小鹿', intro: 'React 重度用户，偶尔写写 Vue。', interests: [7, 6, 11], activity: 4 },
  { nick: '架构师阿杰', intro: '某电商公司架构师，踩坑无数，乐于分享。', interests: [4, 5, 3], activity: 7 },
  { nick: '数据库老猫', intro: 'DBA 出身，MySQL 和 PostgreSQL 都熟。', interests: [3, 4], activity: 6 },
  { nick: '算法少女', intro: '计算机专业大四，每天一道算法题。', student: true, university: true, interests: [16, 13], activity: 5 },
  { nick: '云原生搬砖工', intro: 'SRE，K8s 集群的保姆。', interests: [5, 4], activity: 4 },
  { nick: '深夜写bug', intro: '白天修 bug，晚上写 bug。', interests: [1, 2, 12], activity: 3 },
  { nick: '转码的小李', intro: '从产品经理转行开发的第二年。', interests: [6, 12, 13], activity: 3 },
  { nick: 'Gopher张', intro: 'Go 语言布道者，开源项目维护者。', interests: [2, 5], activity: 6 },
  { nick: '大模型炼丹师', intro: '做大模型应用落地，RAG 和 Agent 方向。', interests: [9, 10, 11], activity: 7 },
  { nick: 'Java老兵', intro: '写了十五年 Java，还在写。', interests: [1, 14], activity: 4 },
  { nick: '读书的阿月', intro: '一年读 30 本书的程序员，读书会组织者。', interests: [15, 12], activity: 5 },
  { nick: '面试官老周', intro: '面过上千个候选人，分享面试心得。', interests: [13, 14, 12], activity: 6 },
  { nick: '全栈小周', intro: '前后端都写，哪里需要去哪里。', interests: [6, 2, 3], activity: 3 },
  { nick: '安卓小陈', intro: 'Android 开发，最近在学鸿蒙。', interests: [8], activity: 3 },
  { nick: 'iOS阿豪', intro: 'iOS 开发，Swift 爱好者。', interests: [8, 11], activity: 2 },
  { nick: '机器学习小白', intro: '研二，方向是推荐系统。', student: true, university: true, interests: [10, 9], activity: 3 },
  { nick: '测试开发冬冬', intro: '测试开发，自动化测试和质量保障。', interests: [11, 6], activity: 2 },
  { nick: '运维老刘', intro: '从机房时代一路走到云原生。', interests: [5], activity: 3 },
  { nick: '技术经理Amy', intro: '带一个 15 人的研发团队。', interests: [14, 12], activity: 4 },
  { nick: '计算机系大三', intro: '努力准备实习中。', student: true, university: true, interests: [13, 16, 1], activity: 3 },
  { nick: '研一小萌新', intro: '刚入学，什么都想学。', student: true, university: true, interests: [10, 16, 15], activity: 2 },
  { nick: '半路出家的程序员', intro: '机械专业转行，自学三年。', interests: [6, 12], activity: 2 },
  { nick: 'K8s爱好者', intro: '云原生、可观测性。', interests: [5, 2], activity: 2 },
  { nick: '咖啡续命', intro: '没有咖啡写不了代码。', interests: [1, 3, 12], activity: 2 },
  { nick: '北漂十年', intro: '在北京写代码的第十年。', interests: [12, 14, 4], activity: 3 },
  { nick: '杭州打工人', intro: '电商后端，双十一老兵。', interests: [4, 1, 3], activity: 3 },
  { nick: '西二旗早高峰', intro: '每天地铁上刷课。', interests: [9, 12], activity: 2 },
  { nick: '周末写代码', intro: '独立开发者，做点小产品。', interests: [6, 11, 12], activity: 2 },
  { nick: '慢慢来比较快', intro: '长期主义者。', interests: [15, 12], activity: 2 },
  { nick: '阿飞的笔记', intro: '喜欢做笔记，分享学习方法。', student: true, interests: [15, 3, 16], activity: 3 },
  { nick: '一只程序猿', intro: '香蕉和代码。', interests: [2, 7], activity: 2 },
  { nick: '小林学编程', intro: '大二，自学后端中。', student: true, university: true, interests: [16, 1, 3], activity: 2 },
  { nick: 'Vue小能手', intro: 'Vue 3 + Vite，组件库开发者。', interests: [7, 6], activity: 2 },
  { nick: 'Prompt工程师', intro: '和大模型聊天是我的工作。', interests: [9, 11], activity: 3 },
  { nick: '数据分析师晴天', intro: 'SQL 写得比中文还多。', interests: [3, 10], activity: 2 },
  { nick: '老码头', intro: '退居二线的 CTO，喜欢和年轻人聊天。', interests: [14, 4, 15], activity: 3 },
];

const PALETTES: [string, string][] = [
  ['#fa8919', '#f5576c'],
  ['#4facfe', '#00c6fb'],
  ['#43e97b', '#38a9d7'],
  ['#667eea', '#764ba2'],
  ['#f093fb', '#f5576c'],
  ['#30cfd0', '#330867'],
  ['#f6d365', '#fda085'],
  ['#5ee7df', '#b490ca'],
  ['#0ba360', '#3cba92'],
  ['#ff9a9e', '#a18cd1'],
  ['#2b5876', '#4e4376'],
  ['#e96443', '#904e95'],
];

const IMAGE_SIZES: [number, number][] = [
  [1200, 800],
  [800, 1200],
  [1080, 1080],
  [1280, 720],
  [750, 1334],
  [1000, 750],
];

const FONT = "'PingFang SC','Microsoft YaHei','Noto Sans CJK SC',sans-serif";

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function svgPicture(rng: Rng, width: number, height: number, label: string, caption: string): string {
  const [c1, c2] = rng.pick(PALETTES);
  const min = Math.min(width, height);
  const parts: string[] = [];
  const variant = rng.int(0, 2);
  if (variant === 0) {
    for (let i = 0; i < 5; i++) {
      parts.push(
        `<circle cx="${rng.int(0, width)}" cy="${rng.int(0, height)}" r="${rng.int(min / 10, min / 3)}" fill="#fff" fill-opacity="${(0.06 + rng.next() * 0.14).toFixed(2)}"/>`,
      );
    }
  } else if (variant === 1) {
    const bars = rng.int(5, 9);
    const bw = (width * 0.7) / bars;
    for (let i = 0; i < bars; i++) {
      const bh = Math.round(height * (0.15 + rng.next() * 0.35));
      parts.push(
        `<rect x="${Math.round(width * 0.15 + i * bw + bw * 0.15)}" y="${Math.round(height * 0.88 - bh)}" width="${Math.round(bw * 0.7)}" height="${bh}" rx="6" fill="#fff" fill-opacity="0.22"/>`,
      );
    }
  } else {
    for (let i = 0; i < 4; i++) {
      const y = rng.int(0, height);
      const amp = rng.int(20, Math.round(min / 6));
      parts.push(
        `<path d="M0 ${y} Q ${Math.round(width / 4)} ${y - amp} ${Math.round(width / 2)} ${y} T ${width} ${y} V ${height} H 0 Z" fill="#fff" fill-opacity="${(0.05 + rng.next() * 0.08).toFixed(2)}"/>`,
      );
    }
  }
  // Wide banners (topic covers) get a larger label than pictures.
  const fs = Math.round(width / height > 2 ? height / 5 : min / 9);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
    parts.join('') +
    `<text x="50%" y="46%" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${fs}" font-weight="600" fill="#fff">${xml(label)}</text>` +
    `<text x="50%" y="${Math.round(height * 0.46 + fs * 1.1)}" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${Math.round(fs * 0.38)}" fill="#fff" fill-opacity="0.85">${xml(caption)}</text>` +
    `</svg>`
  );
}

function svgAvatar(nick: string, color: string): string {
  const ch = xml(Array.from(nick)[0] ?? '?');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">` +
    `<circle cx="100" cy="100" r="100" fill="${color}"/>` +
    `<text x="100" y="104" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="92" font-weight="600" fill="#fff">${ch}</text>` +
    `</svg>`
  );
}

function svgIcon(text: string, c1: string, c2: string, size: number): string {
  const ch = xml(Array.from(text)[0] ?? '?');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect width="${size}" height="${size}" rx="${Math.round(size / 5)}" fill="url(#g)"/>` +
    `<text x="50%" y="53%" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="${Math.round(size * 0.48)}" font-weight="700" fill="#fff">${ch}</text>` +
    `</svg>`
  );
}

function svgMedal(name: string, c1: string, c2: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<path d="M56 8h48l-8 40H64z" fill="${c2}" fill-opacity="0.8"/>` +
    `<circle cx="80" cy="96" r="56" fill="url(#g)" stroke="#fff" stroke-width="6"/>` +
    `<text x="80" y="100" text-anchor="middle" dominant-baseline="middle" font-family="${FONT}" font-size="22" font-weight="700" fill="#fff">${xml(name.slice(0, 4))}</text>` +
    `</svg>`
  );
}

// ---------------------------------------------------------------------------------------------
// Building the rows

type ImageRow = typeof images.$inferInsert;
type UserRow = typeof users.$inferInsert & { id: number };
type PostRow = typeof posts.$inferInsert & { id: number; userId: number; createdAt: Date };
type CommentRow = typeof comments.$inferInsert & { id: number; createdAt: Date };

interface Built {
  users: UserRow[];
  images: ImageRow[];
  categories: (typeof channelCategories.$inferInsert)[];
  channels: (typeof channels.$inferInsert)[];
  topics: (typeof topics.$inferInsert)[];
  posts: PostRow[];
  postChannels: (typeof postChannels.$inferInsert)[];
  postTopics: (typeof postTopics.$inferInsert)[];
  postImages: (typeof postImages.$inferInsert)[];
  codeSnippets: (typeof codeSnippets.$inferInsert)[];
  votes: (typeof votes.$inferInsert)[];
  voteOptions: (typeof voteOptions.$inferInsert)[];
  voteRecords: (typeof voteRecords.$inferInsert)[];
  comments: CommentRow[];
  likes: (typeof likes.$inferInsert)[];
  channelFollows: (typeof channelFollows.$inferInsert)[];
  userFollows: (typeof userFollows.$inferInsert)[];
  notes: (typeof notes.$inferInsert)[];
  exploreItems: (typeof exploreItems.$inferInsert)[];
  configItems: (typeof configItems.$inferInsert)[];
}

function mmdd(ms: number): string {
  const d = new Date(ms + BEIJING_OFFSET);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** A time between from and to (to > from), skewed towards from when skew > 1. */
function between(rng: Rng, from: number, to: number, skew = 1): number {
  return Math.round(from + (to - from) * Math.pow(rng.next(), skew));
}

function build(nowDate: Date): Built {
  const rng = new Rng(SEED_PRNG_SEED);
  const now = nowDate.getTime();
  /** A time strictly between t and limit (default now), skewed towards t when skew > 1. */
  const after = (t: number, skew = 1, limit = now): number => {
    const gap = Math.min(MINUTE, Math.floor((limit - t) / 3));
    return between(rng, t + gap, limit - gap, skew);
  };
  const out: Built = {
    users: [],
    images: [],
    categories: [],
    channels: [],
    topics: [],
    posts: [],
    postChannels: [],
    postTopics: [],
    postImages: [],
    codeSnippets: [],
    votes: [],
    voteOptions: [],
    voteRecords: [],
    comments: [],
    likes: [],
    channelFollows: [],
    userFollows: [],
    notes: [],
    exploreItems: [],
    configItems: [],
  };

  // ---- categories, channels, topics (with icon and cover images) ----
  const channelCount = CATEGORIES.reduce((n, c) => n + c.channels.length, 0);
  const channelPostCount = new Array<number>(channelCount + 1).fill(0);
  const channelFollowerCount = new Array<number>(channelCount + 1).fill(0);
  const setupTime = new Date(now - 400 * DAY);
  let channelId = 0;
  CATEGORIES.forEach((cat, ci) => {
    out.categories.push({ id: ci + 1, name: cat.name, sort: ci + 1 });
    cat.channels.forEach((ch, si) => {
      channelId++;
      const [c1, c2] = at(PALETTES, channelId % PALETTES.length);
      const id = imageId(`channel:${channelId}`);
      out.images.push({
        id,
        userId: null,
        mime: 'image/svg+xml',
        width: 96,
        height: 96,
        bytes: Buffer.from(svgIcon(ch.name, c1, c2, 96), 'utf8'),
        createdAt: setupTime,
      });
      out.channels.push({
        id: channelId,
        categoryId: ci + 1,
        name: ch.name,
        intro: ch.intro,
        icon: `/img/${id}`,
        sort: si + 1,
      });
    });
  });
  const topicPostCount = new Array<number>(TOPICS.length + 1).fill(0);
  TOPICS.forEach((t, i) => {
    const id = imageId(`topic:${i + 1}`);
    out.images.push({
      id,
      userId: null,
      mime: 'image/svg+xml',
      width: 750,
      height: 300,
      bytes: Buffer.from(svgPicture(rng, 750, 300, `#${t.name}#`, '话题'), 'utf8'),
      createdAt: setupTime,
    });
    out.topics.push({
      id: i + 1,
      name: t.name,
      intro: t.intro,
      cover: `/img/${id}`,
      createdAt: new Date(now - (120 - i * 3) * DAY),
    });
  });
  const topicsByChannel = new Map<number, number[]>();
  TOPICS.forEach((t, i) => {
    for (const c of t.channels) topicsByChannel.set(c, [...(topicsByChannel.get(c) ?? []), i + 1]);
  });

  // ---- users ----
  const userCount = USERS.length;
  const phones = new Set<string>([DEMO_USER_CELLPHONE]);
  const stats = Array.from({ length: userCount + 1 }, () => ({ followers: 0, following: 0, posts: 0, likes: 0 }));
  USERS.forEach((u, i) => {
    const id = i + 1;
    let phone = DEMO_USER_CELLPHONE;
    if (id > 1) {
      do phone = `138${String(rng.int(0, 99_999_999)).padStart(8, '0')}`;
      while (phones.has(phone));
      phones.add(phone);
    }
    const [color] = at(PALETTES, (id * 5) % PALETTES.length);
    const avatarId = imageId(`avatar:${id}`);
    const createdAt = new Date(now - rng.int(90, 1200) * DAY - rng.int(0, DAY));
    out.images.push({
      id: avatarId,
      userId: id,
      mime: 'image/svg+xml',
      width: 200,
      height: 200,
      bytes: Buffer.from(svgAvatar(u.nick, color), 'utf8'),
      createdAt,
    });
    out.users.push({
      id,
      ucode: createHash('sha256').update(`seed-user:${id}`).digest('hex').slice(0, 14).toUpperCase(),
      nick: u.nick,
      avatar: `/img/${avatarId}`,
      cellphone: phone,
      intro: u.intro,
      isStudent: u.student ?? false,
      isUniversity: u.university ?? false,
      usertype: 1,
      createdAt,
    });
  });
  const userIds = out.users.map((u) => u.id);
  const userCreated = (id: number) => at(out.users, id - 1).createdAt?.getTime() ?? 0;
  const popularity = USERS.map((u) => u.activity);

  // ---- posts ----
  const times: number[] = [];
  const hourWeights = [0, 0, 0, 0, 0, 0, 0, 1, 3, 4, 3, 3, 4, 5, 3, 3, 3, 3, 3, 4, 6, 7, 7, 5];
  const hours = hourWeights.map((_, h) => h);
  const todayStart = Math.floor((now + BEIJING_OFFSET) / DAY) * DAY - BEIJING_OFFSET;
  while (times.length < POST_COUNT) {
    const day = rng.int(0, 59);
    const t = todayStart - day * DAY + rng.weighted(hours, hourWeights) * HOUR + rng.int(0, HOUR - 1);
    if (t < now - 20 * MINUTE) times.push(t);
  }
  times.sort((a, b) => a - b);
  for (let i = 1; i < times.length; i++) if (at(times, i) <= at(times, i - 1)) times[i] = at(times, i - 1) + 1000;

  const indices = rng.shuffle(times.map((_, i) => i));
  const voteCount = Math.round(POST_COUNT * 0.05);
  const codeCount = Math.round(POST_COUNT * 0.1);
  const imageCount = Math.round(POST_COUNT * 0.15);
  const kind = new Map<number, 'vote' | 'code' | 'images'>();
  indices.slice(0, voteCount).forEach((i) => kind.set(i, 'vote'));
  indices.slice(voteCount, voteCount + codeCount).forEach((i) => kind.set(i, 'code'));
  indices.slice(voteCount + codeCount, voteCount + codeCount + imageCount).forEach((i) => kind.set(i, 'images'));
  const good = new Set(rng.sample(indices, Math.round(POST_COUNT * 0.08)));

  let imageSerial = 0;
  let postImageId = 0;
  let voteId = 0;
  let optionId = 0;
  const checkinDay = new Map<number, number>();
  const allChannelIds = out.channels.map((c) => c.id ?? 0);

  times.forEach((time, i) => {
    const id = i + 1;
    const k = kind.get(i);
    let authorId = rng.weighted(userIds, popularity);
    // The author joined before writing.
    if (userCreated(authorId) > time) authorId = 1;
    const author = at(USERS, authorId - 1);
    let primary = rng.pick(author.interests);
    let content: string;
    let snippet: SnippetDef | undefined;
    let voteDef: VoteDef | undefined;
    if (k === 'code') {
      const mine = SNIPPETS.filter((s) => author.interests.includes(s.channel));
      snippet = mine.length > 0 && rng.chance(0.7) ? rng.pick(mine) : rng.pick(SNIPPETS);
      primary = snippet.channel;
      content = snippet.text;
    } else if (k === 'vote') {
      voteDef = rng.pick(VOTE_DEFS);
      primary = voteDef.channel;
      content = voteDef.intro;
    } else if (rng.chance(0.18)) {
      const n = (checkinDay.get(authorId) ?? rng.int(3, 40)) + rng.int(1, 3);
      checkinDay.set(authorId, n);
      content = `学习打卡 Day ${n}：今天学完了《${rng.pick(COLUMNS[primary] ?? ['数据结构与算法之美'])}》的第 ${rng.int(1, 45)} 讲。${rng.pick(TAKEAWAYS)}`;
    } else {
      const pool = BODIES[primary] ?? [];
      content = rng.pick(pool);
      if (rng.chance(0.2)) {
        const second = rng.pick(pool);
        if (second !== content) content = `${content}\n\n${second}`;
      }
      const closer = rng.pick(CLOSERS);
      if (closer && !content.endsWith('？')) content = `${content}${closer}`;
    }
    const channelSet = [primary];
    if (rng.chance(0.3)) {
      const sameCategory = out.channels.filter(
        (c) => c.categoryId === at(out.channels, primary - 1).categoryId && c.id !== primary,
      );
      const extra = sameCategory.length > 0 && rng.chance(0.7) ? rng.pick(sameCategory).id : rng.pick(allChannelIds);
      if (extra !== undefined && extra !== primary) channelSet.push(extra);
    }
    const createdAt = new Date(time);
    out.posts.push({ id, userId: authorId, content, isGood: good.has(i), likeCount: 0, commentCount: 0, createdAt });
    at(stats, authorId).posts++;
    for (const c of channelSet) {
      out.postChannels.push({ postId: id, channelId: c });
      channelPostCount[c] = at(channelPostCount, c) + 1;
    }

    // Topics: about 45% of posts, a few with two.
    const candidates = topicsByChannel.get(primary) ?? [];
    if (candidates.length > 0 && rng.chance(0.45)) {
      for (const t of rng.sample(candidates, rng.chance(0.15) ? 2 : 1)) {
        out.postTopics.push({ postId: id, topicId: t });
        topicPostCount[t] = at(topicPostCount, t) + 1;
      }
    }

    if (k === 'images') {
      const n = rng.weighted([1, 2, 3, 4], [4, 3, 2, 2]);
      const labels = IMAGE_LABELS[primary] ?? ['学习笔记'];
      for (let s = 0; s < n; s++) {
        const [w, h] = rng.pick(IMAGE_SIZES);
        const imgId = imageId(`post:${id}:${s}:${++imageSerial}`);
        out.images.push({
          id: imgId,
          userId: authorId,
          mime: 'image/svg+xml',
          width: w,
          height: h,
          bytes: Buffer.from(svgPicture(rng, w, h, rng.pick(labels), `${author.nick} · ${mmdd(time)}`), 'utf8'),
          createdAt,
        });
        out.postImages.push({ id: ++postImageId, postId: id, url: `/img/${imgId}`, width: w, height: h, sort: s });
      }
    }
    if (snippet) {
      out.codeSnippets.push({
        uuid: rng.uuid(),
        postId: id,
        language: snippet.language,
        title: snippet.title,
        code: snippet.code,
        sort: 0,
      });
    }
    if (voteDef) {
      const vId = ++voteId;
      const optionIds: number[] = [];
      const counts = new Map<number, number>();
      voteDef.options.forEach((text, s) => {
        optionIds.push(++optionId);
        counts.set(optionId, 0);
        out.voteOptions.push({ id: optionId, voteId: vId, text, sort: s, count: 0 });
      });
      const optionWeights = optionIds.map(() => 1 + rng.int(0, 6));
      const endTime = rng.chance(0.4) ? null : new Date(time + rng.int(3, 14) * DAY);
      const voteLimit = endTime ? Math.min(now, endTime.getTime()) : now;
      const voters = rng.sample(
        userIds.filter((u) => userCreated(u) < time),
        rng.int(5, 28),
      );
      for (const voter of voters) {
        const chosen = voteDef.multiple
          ? rng.sample(optionIds, rng.int(1, Math.min(3, optionIds.length)))
          : [rng.weighted(optionIds, optionWeights)];
        const at0 = new Date(after(time, 2.5, voteLimit));
        for (const o of chosen) {
          out.voteRecords.push({ voteId: vId, userId: voter, optionId: o, createdAt: at0 });
          counts.set(o, (counts.get(o) ?? 0) + 1);
        }
      }
      for (const opt of out.voteOptions) if (opt.voteId === vId) opt.count = counts.get(opt.id ?? 0) ?? 0;
      out.votes.push({ id: vId, postId: id, title: voteDef.title, multiple: voteDef.multiple, endTime, total: voters.length });
    }
  });

  // ---- comments (time ordered ids) ----
  interface DraftComment {
    postId: number;
    userId: number;
    root: DraftComment | null;
    replyUserId: number | null;
    content: string;
    time: number;
    id: number;
  }
  const drafts: DraftComment[] = [];
  for (const post of out.posts) {
    const postTime = post.createdAt.getTime();
    const limit = Math.min(now, postTime + 6 * DAY);
    const roots = rng.int(0, 4) + (post.isGood ? rng.int(3, 7) : 0) + (rng.chance(0.1) ? rng.int(2, 5) : 0);
    // No comment text twice under one post: a reader sees them side by side.
    const texts = rng.shuffle(COMMENT_TEXTS);
    for (let r = 0; r < roots; r++) {
      const userId = rng.pick(userIds);
      const root: DraftComment = {
        postId: post.id,
        userId,
        root: null,
        replyUserId: null,
        content: texts[r % texts.length]!,
        time: after(postTime, 2.2, limit),
        id: 0,
      };
      drafts.push(root);
      if (rng.chance(0.4)) {
        const replies = rng.int(1, 3);
        let last = root;
        for (let p = 0; p < replies; p++) {
          const replier = p === 0 && rng.chance(0.6) ? post.userId : rng.pick(userIds);
          const answered = rng.chance(0.7) ? root.userId : last.userId;
          const reply: DraftComment = {
            postId: post.id,
            userId: replier,
            root,
            replyUserId: answered === replier ? root.userId : answered,
            content: rng.pick(REPLY_TEXTS),
            time: after(last.time, 2, Math.min(now, last.time + 2 * DAY)),
            id: 0,
          };
          drafts.push(reply);
          last = reply;
        }
      }
    }
  }
  const sortedDrafts = drafts
    .map((d, order) => ({ d, order }))
    .sort((a, b) => a.d.time - b.d.time || a.order - b.order)
    .map((x) => x.d);
  sortedDrafts.forEach((d, i) => {
    d.id = i + 1;
    // Strictly increasing times, so that id order is time order.
    const prev = sortedDrafts[i - 1];
    if (prev && d.time <= prev.time) d.time = prev.time + 1;
  });
  const postById = (id: number) => at(out.posts, id - 1);
  const commentById = (id: number) => at(out.comments, id - 1);
  for (const d of sortedDrafts) {
    out.comments.push({
      id: d.id,
      postId: d.postId,
      userId: d.userId,
      rootId: d.root ? d.root.id : null,
      replyUserId: d.replyUserId,
      content: d.content,
      likeCount: 0,
      replyCount: 0,
      createdAt: new Date(d.time),
    });
    const post = postById(d.postId);
    post.commentCount = (post.commentCount ?? 0) + 1;
  }
  for (const c of out.comments) {
    if (c.rootId) {
      const root = commentById(c.rootId);
      root.replyCount = (root.replyCount ?? 0) + 1;
    }
  }

  // ---- likes ----
  for (const post of out.posts) {
    const postTime = post.createdAt.getTime();
    let n = Math.floor(Math.pow(rng.next(), 1.6) * 12);
    if (post.isGood) n += rng.int(8, 22);
    if (kind.get(post.id - 1) === 'images') n += rng.int(0, 5);
    const likers = rng.sample(
      userIds.filter((u) => u !== post.userId),
      n,
    );
    for (const u of likers) {
      out.likes.push({
        userId: u,
        targetType: 'post',
        targetId: post.id,
        createdAt: new Date(after(postTime, 3)),
      });
    }
    post.likeCount = likers.length;
    at(stats, post.userId).likes += likers.length;
  }
  for (const c of out.comments) {
    const n = Math.floor(Math.pow(rng.next(), 2.5) * 7);
    if (n === 0) continue;
    const cTime = c.createdAt.getTime();
    const likers = rng.sample(
      userIds.filter((u) => u !== c.userId),
      n,
    );
    for (const u of likers) {
      out.likes.push({
        userId: u,
        targetType: 'comment',
        targetId: c.id,
        createdAt: new Date(after(cTime, 3)),
      });
    }
    c.likeCount = likers.length;
    at(stats, c.userId).likes += likers.length;
  }

  // ---- follows ----
  for (const u of out.users) {
    const def = at(USERS, u.id - 1);
    const extra = rng.sample(
      allChannelIds.filter((c) => !def.interests.includes(c)),
      rng.int(0, 3),
    );
    for (const c of [...def.interests, ...extra]) {
      out.channelFollows.push({
        userId: u.id,
        channelId: c,
        createdAt: new Date(between(rng, userCreated(u.id), now - HOUR)),
      });
      channelFollowerCount[c] = at(channelFollowerCount, c) + 1;
    }
  }
  const followPairs = new Set<string>();
  const follow = (a: number, b: number) => {
    if (a === b || followPairs.has(`${a}:${b}`)) return;
    followPairs.add(`${a}:${b}`);
    out.userFollows.push({
      followerId: a,
      followeeId: b,
      createdAt: new Date(between(rng, Math.max(userCreated(a), userCreated(b)), now - HOUR)),
    });
    at(stats, a).following++;
    at(stats, b).followers++;
  };
  for (const u of userIds) {
    const n = u === 1 ? 9 : rng.int(2, 10);
    for (let f = 0; f < n; f++) follow(u, rng.weighted(userIds, popularity));
  }
  // The demo user has an audience.
  for (const u of rng.sample(userIds, 14)) follow(u, 1);

  // ---- counters on users, channels, topics ----
  for (const u of out.users) {
    const s = at(stats, u.id);
    u.followerCount = s.followers;
    u.followingCount = s.following;
    u.postCount = s.posts;
    u.likeCount = s.likes;
  }
  for (const c of out.channels) {
    const id = c.id ?? 0;
    c.postCount = at(channelPostCount, id);
    c.followerCount = at(channelFollowerCount, id);
  }
  for (const t of out.topics) t.postCount = at(topicPostCount, t.id ?? 0);

  // ---- notes ----
  let noteId = 0;
  const noteUsers = [1, ...rng.sample(userIds.slice(1), 14)];
  for (const u of noteUsers) {
    const n = u === 1 ? 5 : rng.int(1, 3);
    const texts = rng.sample(NOTE_TEXTS, n);
    const created = texts.map(() => between(rng, now - 60 * DAY, now - HOUR)).sort((a, b) => a - b);
    texts.forEach((content, i) => {
      const c = at(created, i);
      out.notes.push({
        id: ++noteId,
        userId: u,
        content,
        createdAt: new Date(c),
        updatedAt: new Date(rng.chance(0.3) ? between(rng, c, now - MINUTE) : c),
      });
    });
  }

  // ---- explore items and config ----
  const explore: [string, string, string, number][] = [
    ['horde', 'sidebar', '话题广场', 1],
    ['horde', 'sidebar', '每日一课', 2],
    ['horde', 'sidebar', '读书会书单', 3],
    ['horde', 'sidebar', '社区公约', 4],
    ['horde', 'banner', '年度学习报告', 1],
    ['horde', 'banner', 'AI 助手', 2],
  ];
  const redirects: Record<string, string> = {
    话题广场: '/topic/list',
    每日一课: 'https://time.geekbang.org/dailylesson',
    读书会书单: '/booklist/2024',
    社区公约: '/statement',
    年度学习报告: 'https://time.geekbang.org/activity/annual-report',
    'AI 助手': 'https://time.geekbang.org/ai',
  };
  explore.forEach(([page, blockName, title, sort], i) => {
    out.exploreItems.push({ id: i + 1, page, blockName, title, redirectParam: redirects[title] ?? '/home', sort });
  });

  const medalDefs: [string, string, string, string][] = [
    ['checkin_7', '七日打卡', '连续 7 天发布学习动态', '#fa8919'],
    ['checkin_30', '月度学霸', '连续 30 天发布学习动态', '#f5576c'],
    ['helper', '热心答主', '回答被点赞超过 50 次', '#4facfe'],
    ['coder', '代码达人', '分享 10 段代码片段', '#43e97b'],
    ['reader', '读书之星', '读书会打卡 20 次', '#667eea'],
  ];
  const seasonStart = todayStart - 30 * DAY;
  const medals = medalDefs.map(([key, name, desc, color], i) => {
    const id = imageId(`medal:${key}`);
    out.images.push({
      id,
      userId: null,
      mime: 'image/svg+xml',
      width: 160,
      height: 160,
      bytes: Buffer.from(svgMedal(name, color, at(PALETTES, (i * 3 + 1) % PALETTES.length)[1]), 'utf8'),
      createdAt: setupTime,
    });
    return {
      id: i + 1,
      key,
      name,
      desc,
      icon: `/img/${id}`,
      start_time: seasonStart,
      end_time: seasonStart + 90 * DAY,
    };
  });
  out.configItems.push({ key: 'race_medals', content: JSON.stringify(medals) });

  return out;
}

// ---------------------------------------------------------------------------------------------
// Writing

const SERIAL_TABLES = [
  'users',
  'channel_categories',
  'channels',
  'topics',
  'posts',
  'post_images',
  'votes',
  'vote_options',
  'comments',
  'notes',
  'explore_items',
] as const;

async function insertAll<T extends PgTable>(db: Db, table: T, rows: PgInsertValue<T>[], chunk = 500): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await db.insert(table).values(rows.slice(i, i + chunk));
  }
}

async function write(db: Db, b: Built): Promise<SeedSummary> {
  await insertAll(db, users, b.users);
  await insertAll(db, images, b.images, 100);
  await insertAll(db, channelCategories, b.categories);
  await insertAll(db, channels, b.channels);
  await insertAll(db, topics, b.topics);
  await insertAll(db, posts, b.posts);
  await insertAll(db, postChannels, b.postChannels, 1000);
  await insertAll(db, postTopics, b.postTopics, 1000);
  await insertAll(db, postImages, b.postImages);
  await insertAll(db, codeSnippets, b.codeSnippets);
  await insertAll(db, votes, b.votes);
  await insertAll(db, voteOptions, b.voteOptions);
  await insertAll(db, voteRecords, b.voteRecords, 1000);
  await insertAll(db, comments, b.comments);
  await insertAll(db, likes, b.likes, 1000);
  await insertAll(db, channelFollows, b.channelFollows, 1000);
  await insertAll(db, userFollows, b.userFollows, 1000);
  await insertAll(db, notes, b.notes);
  await insertAll(db, exploreItems, b.exploreItems);
  await insertAll(db, configItems, b.configItems);
  for (const table of SERIAL_TABLES) {
    // Explicit ids were inserted: move each sequence past them.
    await db.execute(
      sql.raw(
        `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 0) + 1, false)`,
      ),
    );
  }
  return {
    users: b.users.length,
    channelCategories: b.categories.length,
    channels: b.channels.length,
    channelFollows: b.channelFollows.length,
    userFollows: b.userFollows.length,
    topics: b.topics.length,
    posts: b.posts.length,
    postChannels: b.postChannels.length,
    postTopics: b.postTopics.length,
    images: b.images.length,
    postImages: b.postImages.length,
    codeSnippets: b.codeSnippets.length,
    votes: b.votes.length,
    voteOptions: b.voteOptions.length,
    voteRecords: b.voteRecords.length,
    comments: b.comments.length,
    likes: b.likes.length,
    notes: b.notes.length,
    exploreItems: b.exploreItems.length,
    configItems: b.configItems.length,
  };
}

/** Serialises seeders of one database (several API processes may start at once). */
const SEED_LOCK = 727_402;

/**
 * Fills an empty, migrated database with the demo community, in one transaction.
 * Throws if the database already has users.
 */
export async function seedDemoData(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const built = build(options.now ?? SEED_NOW);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [row] = await tx.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) throw new Error('seedDemoData: the database already has users');
    return write(tx, built);
  });
}

/** Seeds only when the users table is empty; true if it seeded. */
export async function seedIfEmpty(db: Db, options: SeedOptions = {}): Promise<boolean> {
  const [pre] = await db.select({ n: count() }).from(users);
  if ((pre?.n ?? 0) > 0) return false;
  const built = build(options.now ?? SEED_NOW);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    const [row] = await tx.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) return false;
    await write(tx, built);
    return true;
  });
}
