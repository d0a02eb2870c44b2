/** WeChat JS-SDK config signature: sha1 over the jsapi ticket, nonce, timestamp and page URL. */
import { createHash, randomBytes } from 'node:crypto';

export function signShareUrl(params: { appId: string; jsapiTicket: string; url: string; now?: number; nonce?: string }) {
  const timestamp = Math.floor((params.now ?? Date.now()) / 1000);
  const nonceStr = params.nonce ?? randomBytes(8).toString('hex');
  // The signed URL never includes the fragment (WeChat's rule).
  const url = params.url.split('#')[0]!;
  const signature = createHash('sha1')
    .update(`jsapi_ticket=${params.jsapiTicket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url}`)
    .digest('hex');
  return { appId: params.appId, timestamp, nonceStr, signature };
}
