declare module 'socket.io-msgpack-parser' {
  const parser: object;
  export default parser;
}
