/**
 * The error codes by name, as errors.ts gives them (ErrorCode): one constant each, so that a bundle
 * carries the codes its code names as numbers, and no table of every name.
 */

/** Session error: the client opens the login popup and swallows the error. */
export const SessionInvalid = -1001;
export const Internal = -1002;
export const Unknown = -1003;
/** Added: a request body or query that does not match its schema. */
export const BadRequest = -1004;
/** Added: the post, comment, channel, user or topic does not exist (or was deleted). */
export const NotFound = -1005;
/** Added: the logged-in user may not do this (e.g. delete another user's post). */
export const Forbidden = -1006;
/** Added: an upload that is not an image or is too large. */
export const BadUpload = -1007;
/** Added: a second vote on the same poll. */
export const AlreadyVoted = -1008;
/** Added: a client_id used again with a different request body. */
export const IdempotencyMismatch = -1009;
/** Added: the poll's end_time has passed. */
export const VoteClosed = -1010;
/** Added: a second complaint by the same user about the same target. */
export const AlreadyComplained = -1011;
/** Added: a complaint about one's own post, comment or self. */
export const OwnComplaint = -1012;
/** Added: the login code could not be delivered (the SMS gateway behind the login-code webhook failed). */
export const CodeNotSent = -1013;
/** Added: a write of a user a moderator suspended (禁言); the message says until when. */
export const Suspended = -1014;
export const NotLoggedIn = -2000;
export const TooFrequent = -2005;
export const DailyLimit = -2006;
export const FeedbackInvalid = -2901;
export const FeedbackTooLong = -2902;
export const CodeWrong = -3007;
export const Relogin = -3003;
export const CodeEmpty = -3004;
export const CodeExpired = -3005;
export const FollowLimit = -5007;
/** Client-side only: the request never reached the server. */
export const Network = -10086;
