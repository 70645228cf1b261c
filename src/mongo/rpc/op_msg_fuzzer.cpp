// libFuzzer target: any byte string, framed as a message body of each command
// opcode, must either parse or fail with a Status (never crash, never read out
// of bounds). Build with --sanitize=address,fuzzer (clang).
#include <cstddef>
#include <cstdint>

#include "mongo/rpc/factory.h"
#include "mongo/rpc/legacy_request.h"
#include "mongo/rpc/message_compressor.h"
#include "mongo/rpc/op_msg.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mongo;
    if (size > 1 << 20)
        return 0;
    for (NetworkOp op : {dbMsg, dbQuery, dbCompressed}) {
        Message m;
        m.setData(op, reinterpret_cast<const char*>(data), size);
        auto in = rpc::parseCommandInvocation(m);
        if (in.isOK()) {
            (void)in.getValue().getDocuments("documents");
            (void)rpc::makeCommandReply(in.getValue(), in.getValue().body);
        } else {
            (void)rpc::makeErrorReply(m, in.getStatus());
        }
        auto msg = OpMsgRequest::parse(m);
        if (msg.isOK())
            (void)msg.getValue().asCommandObject();
    }
    return 0;
}
