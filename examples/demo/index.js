export default {
  async fetch(request, env) {
    return new Response("hello from takokit");
  },
};
