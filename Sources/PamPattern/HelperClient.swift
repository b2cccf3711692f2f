import CPamShim
import CPatternSystem
import PatternCoreEmbedded

/// The module's side of the helper protocol (HelperProtocol.swift): runs pam_pattern_helper from its fixed path
/// with an empty environment and the fields on a pipe, and decodes the answer.
struct HelperClient {
    /// HelperRequest.installedPath; only the tests' own builds differ, and they change the file, not this.
    let path: [UInt8]

    func call(_ operation: HelperOperation, user: [UInt8], fields: [[UInt8]]) -> Result<HelperVerdict, HelperFailure> {
        var input = HelperRequest.encodeFields(fields)
        defer { input.withUnsafeMutableBytes { pattern_secure_zero($0.baseAddress, $0.count) } }
        var output = [UInt8](repeating: 0, count: HelperVerdict.maximumLineBytes + 1)
        var outputLength = 0
        var status: Int32 = 0
        guard var cPath = SystemCall.cString(path), var cOperation = SystemCall.cString(operation.word),
            var cUser = SystemCall.cString(user)
        else { return .failure(.couldNotRun(errno: EINVAL)) }
        let ran: Int32 = cPath.withUnsafeMutableBufferPointer { pathBuffer in
            cOperation.withUnsafeMutableBufferPointer { operationBuffer in
                cUser.withUnsafeMutableBufferPointer { userBuffer in
                    var argv: [UnsafeMutablePointer<CChar>?] = [
                        pathBuffer.baseAddress, operationBuffer.baseAddress, userBuffer.baseAddress, nil,
                    ]
                    return argv.withUnsafeMutableBufferPointer { argvBuffer in
                        input.withUnsafeBufferPointer { inputBuffer in
                            output.withUnsafeMutableBufferPointer { outputBuffer in
                                pam_pattern_run_helper(
                                    pathBuffer.baseAddress, argvBuffer.baseAddress,
                                    inputBuffer.baseAddress, inputBuffer.count,
                                    outputBuffer.baseAddress, outputBuffer.count, &outputLength, &status)
                            }
                        }
                    }
                }
            }
        }
        switch ran {
        case 0: break
        case 1: return .failure(.killed(signal: status))
        default: return .failure(.couldNotRun(errno: pattern_errno()))
        }
        guard let verdict = HelperVerdict.decode(exitStatus: status, output: Array(output.prefix(outputLength))) else {
            return .failure(.unexpectedAnswer(exitStatus: status))
        }
        switch verdict {
        case .refused(let why): return .failure(.refused(why))
        case .unavailable, .tpmRefused: return .failure(.unavailable)
        default: return .success(verdict)
        }
    }
}
