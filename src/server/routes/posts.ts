/** Posts and what hangs off them: detail, add, delete, comments, likes, votes, code snippets, topics. */
import { defineHandlers } from '../http/define-endpoint.ts';
import { getCodeSnippet } from '../services/code.ts';
import { addComment, deleteComment, listComments, listReplies } from '../services/comments.ts';
import { listLikers, setLike, type LikeTarget } from '../services/likes.ts';
import { writer } from '../services/once.ts';
import { addPost } from '../services/post-add.ts';
import { deletePost, getPost, isEmptyPage, listPosts } from '../services/posts.ts';
import { getTopic, listTopics } from '../services/topics.ts';
import { submitVote } from '../services/votes.ts';
import type { RouteDeps } from './deps.ts';

/** The target of a like call: `type` is accepted for the real service's clients and otherwise ignored. */
const likeTargetOf = (input: { post_id: number } | { comment_id: number }): LikeTarget =>
  'post_id' in input ? { post_id: input.post_id } : { comment_id: input.comment_id };

export const postHandlers = ({ db, config, onReplay }: RouteDeps) => {
  const write = writer(db, config, onReplay);
  return defineHandlers({
    postDetail: ({ input, viewer }) => getPost(db, input.post_id, viewer),

    postAdd: ({ input, viewer, request }) =>
      write.inStatement({ endpoint: 'postAdd', viewer, input }, (db, once) =>
        addPost(db, viewer.userId, input, { hostname: request.hostname, dailyPostLimit: config.dailyPostLimit }, once),
      ),

    postDelete: ({ input, viewer }) =>
      write({ endpoint: 'postDelete', viewer, input }, (tx) => deletePost(tx, viewer.userId, input.post_id)),

    likeAdd: ({ input, viewer }) =>
      write.inStatement({ endpoint: 'likeAdd', viewer, input }, (db, once) =>
        setLike(db, viewer.userId, likeTargetOf(input), true, once),
      ),

    likeCancel: ({ input, viewer }) =>
      write.inStatement({ endpoint: 'likeCancel', viewer, input }, (db, once) =>
        setLike(db, viewer.userId, likeTargetOf(input), false, once),
      ),

    // The post as the caller reads it: a hidden one is its author's alone.
    likeList: async ({ input, viewer }) => {
      await getPost(db, input.post_id, viewer && { userId: viewer.userId });
      return listLikers(db, input.post_id, input, viewer?.userId ?? null);
    },

    commentList: async ({ input, viewer }) => {
      await getPost(db, input.post_id, viewer && { userId: viewer.userId });
      return listComments(db, input.post_id, input, viewer?.userId ?? null);
    },

    commentReplies: ({ input, viewer }) => listReplies(db, input.comment_id, input, viewer?.userId ?? null),

    commentAdd: ({ input, viewer }) =>
      write.inStatement({ endpoint: 'commentAdd', viewer, input }, (db, once) =>
        addComment(db, viewer.userId, input, config.dailyCommentLimit, once),
      ),

    commentDelete: ({ input, viewer }) =>
      write({ endpoint: 'commentDelete', viewer, input }, (tx) => deleteComment(tx, viewer.userId, input.comment_id)),

    voteSubmit: ({ input, viewer }) =>
      write({ endpoint: 'voteSubmit', viewer, input }, (tx) =>
        submitVote(tx, viewer.userId, input.post_id, input.option_ids),
      ),

    codeDetail: ({ input, viewer }) => getCodeSnippet(db, input.post_id, input.uuid, viewer?.userId ?? null),

    topicList: ({ input }) => listTopics(db, input),

    topicDetail: ({ input }) => getTopic(db, input.topic_id),

    topicPosts: async ({ input, viewer }) => {
      const page = await listPosts(db, { kind: 'topic', topicId: input.topic_id }, input, viewer);
      // A page with posts has its topic (a foreign key); only an empty one may be of a topic that is not there.
      if (isEmptyPage(page)) await getTopic(db, input.topic_id);
      return page;
    },
  });
};
