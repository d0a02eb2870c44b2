/**
 * The one error catalogue (SPEC.md section 8). The server answers with these codes and
 * the client shows these messages; neither side keeps its own copy.
 */

export const ErrorCode = {
  /** Session error: the client opens the login popup and swallows the error. */
  SessionInvalid: -1001,
  Internal: -1002,
  Unknown: -1003,
  /** Added: a request body or query that does not match its schema. */
  BadRequest: -1004,
  /** Added: the post, comment, channel, user or topic does not exist (or was deleted). */
  NotFound: -1005,
  /** Added: the logged-in user may not do this (e.g. delete another user's post). */
  Forbidden: -1006,
  /** Added: an upload that is not an image or is too large. */
  BadUpload: -1007,
  /** Added: a second vote on the same poll. */
  AlreadyVoted: -1008,
  /** Added: a client_id used again with a different request body. */
  IdempotencyMismatch: -1009,
  /** Added: the poll's end_time has passed. */
  VoteClosed: -1010,
  /** Added: a second complaint by the same user about the same target. */
  AlreadyComplained: -1011,
  NotLoggedIn: -2000,
  BalanceAbnormal: -2001,
  TooFrequent: -2005,
  DailyLimit: -2006,
  ColumnOffShelf: -2021,
  ColumnMissing: -2022,
  ColumnSubscribed: -2023,
  BalanceLow: -2102,
  OrderFailed: -2120,
  PayFailed: -2121,
  FeedbackInvalid: -2901,
  FeedbackTooLong: -2902,
  CodeWrongA: -3006,
  CodeWrong: -3007,
  Relogin: -3003,
  CodeEmpty: -3004,
  CodeExpired: -3005,
  ReadCodeFormat: -3101,
  ReadCodeInvalid: -3102,
  ReadCodeFetch: -3103,
  ReadCodeMismatch: -3105,
  CouponTaken: -3351,
  CouponGone: -3352,
  WithdrawMin: -3363,
  WithdrawRange: -3364,
  WithdrawCash: -3365,
  WithdrawFailed: -3366,
  WithdrawDaily: -3369,
  WithdrawFrequent: -3370,
  FollowLimit: -5007,
  /** Client-side only: the request never reached the server. */
  Network: -10086,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Code -> message, exactly as SPEC.md section 8 lists them, plus the codes added above. */
export const errorMessages: Readonly<Record<number, string>> = {
  [-10086]: '请求出错，请检查网络',
  [-1001]: '登录已失效，请重新登录',
  [-1002]: '系统内部错误',
  [-1003]: '未知错误',
  [-1004]: '请求参数错误',
  [-1005]: '内容不存在或已被删除',
  [-1006]: '没有权限进行此操作',
  [-1007]: '请上传 10MB 以内的 JPG、PNG、GIF 或 WebP 图片',
  [-1008]: '已经投过票了',
  [-1009]: '重复请求与原请求不一致',
  [-1010]: '投票已结束',
  [-1011]: '已经投诉过了',
  [-2000]: '请先登录',
  [-2021]: '专栏已下架，不能订阅',
  [-2022]: '该专栏不存在',
  [-2023]: '您已订阅该专栏，不能重复订阅',
  [-2001]: '余额账户异常',
  [-2005]: '请求频繁',
  [-2102]: '余额不足',
  [-2120]: '订单创建失败',
  [-2121]: '支付失败',
  [-2901]: '无效的反馈内容',
  [-2902]: '反馈内容请不要超过 500 字',
  [-3007]: '验证码错误',
  [-3006]: '验证码错误',
  [-3003]: '请重新登录',
  [-3004]: '验证码为空',
  [-3005]: '请更新验证码',
  [-3101]: '阅码格式错误',
  [-3102]: '阅码无效',
  [-3103]: '阅码信息获取失败',
  [-3105]: '阅码与专栏不匹配',
  [-3351]: '已获取过云栖优惠码',
  [-3352]: '优惠码已被领完',
  [-3363]: '金额大于1元才能提现',
  [-3364]: '金额超出提现范围，请联系客服',
  [-3365]: '现金余额不足，请联系客服',
  [-3366]: '提现失败，请重试',
  [-3369]: '单日提现次数不得超过3次',
  [-3370]: '提现频率过高，请稍后重试',
  [-5007]: '总关注用户达上限',
  [-2006]: '今日操作已达上限',
};

/** Messages the client shows on its own (SPEC.md section 8, "Client messages"). */
export const clientMessages = {
  copyDone: '复制成功',
  copyFailed: '复制失败',
  copyUnsupported: '不支持复制',
  badLink: '链接出现错误',
  upgradeApp: '需要升级到极客时间最新版',
  upgradeAppToBuy: '请升级到极客时间最新版后，点击该链接购买',
  userInfoEmpty: '用户信息为空',
  userInfoFailed: '获取用户信息失败',
  offline: '网络异常',
} as const;

/** Codes whose message the server refines (which field was wrong); the client shows the server's text. */
export const detailedCodes: ReadonlySet<number> = new Set([ErrorCode.BadRequest, ErrorCode.BadUpload]);

/** The catalogue message for a known code; otherwise the server's own msg, then a generic one. */
export function messageForCode(code: number, serverMsg?: string): string {
  if (serverMsg && detailedCodes.has(code)) return serverMsg;
  return errorMessages[code] ?? (serverMsg || errorMessages[ErrorCode.Unknown]!);
}
