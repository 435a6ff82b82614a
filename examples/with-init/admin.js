export default {
  async fetch() {
    return new Response("admin: nothing to see yet\n");
  },
};
