/**
 * The one error catalogue: the server answers with these messages, the
 * client's toasts and forms show them; neither side keeps its own copy.
 */
import { ErrorCode, NETWORK_ERROR_MESSAGE } from './errors.ts';

/** Code -> message: the real service's words for its codes, plus those errors.ts marks "Added". */
export const errorMessages: Readonly<Record<number, string>> = {
  [-10086]: NETWORK_ERROR_MESSAGE,
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
  [-1012]: '不能投诉自己的内容',
  [-1013]: '验证码发送失败，请稍后重试',
  [-1014]: '账号已被禁言',
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

/**
 * Codes whose message the server refines (which field was wrong, until when a suspension lasts,
 * why a moderator may not act); the client shows the server's text.
 */
export const detailedCodes: ReadonlySet<number> = new Set([ErrorCode.BadRequest, ErrorCode.BadUpload, ErrorCode.Suspended, ErrorCode.Forbidden]);

/** The catalogue message for a known code; otherwise the server's own msg, then a generic one. */
export function messageForCode(code: number, serverMsg?: string): string {
  if (serverMsg && detailedCodes.has(code)) return serverMsg;
  return errorMessages[code] ?? (serverMsg || errorMessages[ErrorCode.Unknown]!);
}
