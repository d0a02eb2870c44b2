/** The query keys of a post's comments and of a comment's replies (queries.ts reads them): the only source of these keys. */

export const commentKeys = {
  all: ['comments'] as const,
  /** Under the post's key, so what reads the post's comments again reads its replies too. */
  post: (postId: number) => ['comments', postId] as const,
  replies: (postId: number, commentId: number) => ['comments', postId, 'replies', commentId] as const,
};

/** A key of commentKeys.replies (the others hold lists of comments). */
export const isRepliesKey = (key: readonly unknown[]): boolean => key[2] === 'replies';
