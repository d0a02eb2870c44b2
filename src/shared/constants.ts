/** Business constants (sizes, limits, timings) that both the server and the client need. */

export const HTTP_TIMEOUT_MS = 10_000;
export const CHUNK_LOAD_LIMIT_MS = 120_000;

export const MOBILE_BREAKPOINT_PX = 860;
export const PAGE_WIDTH_PX = 1200;
export const SIDEBAR_WIDTH_PX = 220;
export const PC_HEADER_OFFSET_PX = 66;
export const SIDEBAR_SUB_ITEM_HEIGHT_PX = 42;

export const LOCAL_CACHE_MAX_BYTES = 3_145_728;

export const FEEDBACK_MAX_CHARS = 500;

/** Reasons of a complaint, in the order the client lists them (complain/reasons answers this list). */
export const COMPLAIN_REASONS = [
  { reason: 'spam', text: '垃圾广告' },
  { reason: 'porn', text: '色情低俗' },
  { reason: 'illegal', text: '违法违规' },
  { reason: 'abuse', text: '人身攻击' },
  { reason: 'plagiarism', text: '抄袭侵权' },
  { reason: 'other', text: '其他' },
] as const;
export type ComplainReason = (typeof COMPLAIN_REASONS)[number]['reason'];
export const DEFAULT_CUT_LENGTH = 150;
export const BOTTOM_DETECTION_MARGIN_PX = 50;
export const DOUBLE_TAP_MS = 300;
export const WECHAT_RESIGN_DELAY_MS = 300;

export const TOAST_DEFAULT_DURATION_S = 1.5;
export const TOAST_DEFAULT_TOP_PX = 24;
export const TOAST_INFO_TOP_PX = 100;
export const DIALOG_Z_INDEX = 100;
export const GALLERY_BACKDROP_OPACITY = 0.6;
export const GALLERY_MAX_ZOOM = 3;

export const AI_WIDGET_OFFSET_X = 230;
export const AI_WIDGET_OFFSET_Y = 110 + 200;

/** Paging defaults for every cursor list. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;

/** What search/ looks in, one kind a call. */
export const SEARCH_TYPES = ['post', 'topic', 'channel', 'user'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
/** The longest query search/ takes (characters after trimming); a longer one answers -1004. */
export const SEARCH_QUERY_MAX_CHARS = 64;
export const NOTE_LIST_DEFAULT_SIZE = 2;

/** Limits of what users write; the server enforces them, the client counts against them. */
/** A post's text, counted by textLength of text-length.ts (emoji 4, other non-ASCII 2, others 1). */
export const POST_MAX_LENGTH = 10000;
/** A note's text, in UTF-16 code units (note/update, noteUpdate). */
export const NOTE_MAX_CHARS = 5000;
export const COMMENT_MAX_CHARS = 1000;
export const POST_MAX_IMAGES = 9;
export const POST_MAX_CHANNELS = 3;
export const CODE_MAX_CHARS = 20_000;
export const VOTE_MIN_OPTIONS = 2;
export const VOTE_MAX_OPTIONS = 10;
/** A poll's end time is at most this far ahead. */
export const VOTE_MAX_DURATION_MS = 365 * 24 * 3600_000;
/** Topics of one post (topic_tags), and the length of a topic's name in user-perceived characters. */
export const POST_MAX_TOPICS = 5;
export const TOPIC_NAME_MAX_CHARS = 20;
/**
 * A joint book list's code (/booklist/{code}): letters, digits, _ and -, at most 64. Anything
 * else cannot name a list: the page says the link is broken without asking the server.
 */
export const BOOKLIST_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A nickname's length as textLength counts it (Chinese 2, emoji 4, ASCII 1). */
export const NICK_MIN_LENGTH = 2;
export const NICK_MAX_LENGTH = 20;
/** The default largest image upload/image takes (the server's UPLOAD_MAX_BYTES setting may differ). */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/**
 * Widths /img/{id}?w= answers: a requested width snaps down to the nearest of these (below the
 * smallest: the smallest), so a client cannot make the server render every size.
 */
export const IMAGE_VARIANT_WIDTHS = [80, 160, 320, 480, 640, 960, 1280, 1920] as const;

/** Login by a one-time code sent to the phone: its digits, seconds it lives, seconds before another, tries one code takes. */
export const LOGIN_CODE_LENGTH = 6;
export const LOGIN_CODE_TTL_S = 300;
export const LOGIN_CODE_RESEND_S = 60;
export const LOGIN_CODE_MAX_TRIES = 5;

/** The tracking collector (/serv/collect): events per batch, properties per event. */
export const TRACKING_MAX_EVENTS = 50;
export const TRACKING_MAX_PROPERTIES = 30;

/** A grouped notice shows this many of its actors (newest first); the count says the rest. */
export const NOTICE_ACTORS_SHOWN = 3;
/** Excerpts of a notice's target and content, in characters. */
export const NOTICE_EXCERPT_CHARS = 60;
/**
 * What a notice is about: a comment on one's post, a reply to one's comment, a like of one's
 * post or comment, a new follower. Likes and follows are grouped per target and day. A
 * moderation notice (no actor: no moderator is named) tells an author their post or comment was
 * hidden or shown again, a user their suspension, a complainant what became of the complaint;
 * its text is content_excerpt, and it is listed under the tab all only.
 */
export const NOTICE_TYPES = ['comment', 'reply', 'like', 'follow', 'moderation'] as const;
export type NoticeType = (typeof NOTICE_TYPES)[number];
/** The tabs of /notice: 全部 / 评论 (comments and replies) / 赞 / 关注. */
export const NOTICE_TABS = ['all', 'comment', 'like', 'follow'] as const;
export type NoticeTab = (typeof NOTICE_TABS)[number];
/**
 * The entity tag of a user's unread count: a refresh that sends the tag of the count it holds is
 * answered 304 with no body while the count is the same.
 */
export const unreadCountTag = (count: number): string => `"unread-${count}"`;

/**
 * Moderation (services/moderation.ts). Each action writes one row of the audit log; auto_hide is
 * the automatic first response to AUTO_HIDE_COMPLAINTS distinct complaints, no moderator's.
 */
export const MODERATION_ACTIONS = ['hide', 'auto_hide', 'restore', 'dismiss', 'suspend', 'lift'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
/** What closed a complaint: the moderator's action on its target. */
export const MODERATION_OUTCOMES = ['hidden', 'restored', 'dismissed', 'suspended', 'lifted'] as const;
export type ModerationOutcome = (typeof MODERATION_OUTCOMES)[number];
/** How long a suspension lasts: 1, 7 or 30 days, or for good. */
export const SUSPENSION_DAYS = [1, 7, 30] as const;
/** The longest reason a moderator gives (characters). */
export const MODERATION_REASON_MAX_CHARS = 200;
/** The reason an automatically hidden post or comment shows its author. */
export const AUTO_HIDE_REASON = '被多位用户举报，等待审核';
