export default {
  async fetch(request) {
    return Response.json({ service: "api", path: new URL(request.url).pathname });
  },
};
