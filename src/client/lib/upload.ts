/**
 * Uploading a picture (upload/image, multipart) with progress: fetch cannot report how much of
 * a body has been sent, XMLHttpRequest can. The answer is read as every other call's is.
 */
import { OTHER_PATHS } from '#shared/endpoints.ts';
import { answerOf, networkError, requestHeaders } from './http.ts';

export interface UploadedImage {
  url: string;
  width: number;
  height: number;
}

export function uploadImage(file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedImage> {
  const path = OTHER_PATHS.uploadImage;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(requestHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(xhr.responseText);
      } catch {
        payload = undefined;
      }
      try {
        resolve(answerOf<UploadedImage>(xhr.status, payload, path));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(networkError(path));
    xhr.ontimeout = () => reject(networkError(path, 'timeout'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new DOMException('upload cancelled', 'AbortError'));
    const form = new FormData();
    form.append('file', file, file instanceof File ? file.name : 'image');
    xhr.send(form);
  });
}
