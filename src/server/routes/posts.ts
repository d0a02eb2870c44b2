/** Posts and what hangs off them: detail, comments, likers, code snippets, topics. */
import { defineHandlers } from '../http/define-endpoint.ts';
import { getCodeSnippet } from '../services/code.ts';
import { listComments } from '../services/comments.ts';
import { listLikers } from '../services/likes.ts';
import { getPost, listPosts } from '../services/posts.ts';
import { getTopic, listTopics } from '../services/topics.ts';
import type { RouteDeps } from './deps.ts';

export const postHandlers = ({ db }: RouteDeps) =>
  defineHandlers({
    postDetail: ({ input, viewer }) => getPost(db, input.post_id, viewer?.userId ?? null),

    commentList: async ({ input, viewer }) => {
      await getPost(db, input.post_id, null);
      return listComments(db, input.post_id, input, viewer?.userId ?? null);
    },

    likeList: async ({ input, viewer }) => {
      await getPost(db, input.post_id, null);
      return listLikers(db, input.post_id, input, viewer?.userId ?? null);
    },

    codeDetail: ({ input }) => getCodeSnippet(db, input.post_id, input.uuid),

    topicList: ({ input }) => listTopics(db, input),

    topicDetail: ({ input }) => getTopic(db, input.topic_id),

    topicPosts: async ({ input, viewer }) => {
      await getTopic(db, input.topic_id);
      return listPosts(db, { kind: 'topic', topicId: input.topic_id }, input, viewer?.userId ?? null);
    },
  });
