import Testing
@testable import AuditCore
@testable import AuditScan

private let github = "ghp_Qm7Xc2Vb9Nz4Lk8Jh3Gf6Dw1Sa5Rt0YuIoPe"

/// Objects that carry a named value as two members (`NameValuePairs`): the value is judged by
/// the name as by a key's, in either order, and its hits are reported under the name. Before,
/// `{"name": "DB_PASSWORD", "value": …}` gave nothing where `{"DB_PASSWORD": …}` is an error.
@Suite struct NameValuePairTests {
    private func found(_ text: String, name: String = "input.json") -> [String] {
        TestSupport.scan(text, name: name).findings.map { "\($0.ruleId) \($0.pathText) key=\($0.key ?? "-") \($0.position.column)" }
    }

    @Test func aValueIsJudgedByItsSiblingName() {
        // Kubernetes' env list, Postman's environment (the name after the value), AWS's tags.
        #expect(found(#"{"env": [{"name": "DB_PASSWORD", "value": "Tr0ub4dor-x9Lq2mZ"}, {"name": "LOG_LEVEL", "value": "debug"}]}"#)
            == ["name.password /env/0/value key=DB_PASSWORD 43"])
        #expect(found(#"{"values": [{"value": "m4Nb7Vc2Xz9Lk3Jh", "key": "client_secret", "enabled": true}]}"#)
            == ["name.client-secret /values/0/value key=client_secret 23"])
        #expect(found(#"{"Tags": [{"Key": "password", "Value": "Hz7Kq2Wm9Xp4Lr8N"}]}"#)
            == ["name.password /Tags/0/Value key=password 40"])
    }

    @Test func theSameValueUnderTheNameAsAKeyIsTheSameFinding() {
        let pair = TestSupport.scan(#"{"env": [{"name": "api_key", "value": "Zq8Lr3Wx9Tn2Kp5Vb7"}]}"#).findings
        let key = TestSupport.scan(#"{"env": [{"api_key": "Zq8Lr3Wx9Tn2Kp5Vb7"}]}"#).findings
        #expect(pair.map(\.message) == key.map(\.message))
        #expect(pair.map(\.ruleId) == ["name.api-key"])
    }

    @Test func aNameJudgesNoValueThatIsNoSecret() {
        // A placeholder, a number and null, in either order, and a name with no value at all.
        #expect(found(#"[{"name": "password", "value": "changeme"}, {"value": 5, "name": "password"}, {"key": "token", "value": null}, {"name": "password"}, {"value": "Hz7Kq2Wm9Xp4Lr8Q"}]"#).isEmpty)
    }

    @Test func aHitInTheValueSaysMoreThanTheNameAndIsReportedUnderIt() {
        #expect(found(#"[{"key": "Authorization", "value": "Bearer \#(github)"}]"#)
            == ["secret.github-token /0/value key=Authorization 36"])
        #expect(found(#"[{"value": "Bearer \#(github)", "key": "Authorization"}]"#)
            == ["secret.github-token /0/value key=Authorization 12"])
    }

    /// A value past `keptValueLimit` read before its name is judged by its first bytes, as a
    /// whole when its name comes first: a secret-like one is reported with its full length, a
    /// run of one letter is not.
    @Test func aLongValueReadBeforeItsNameIsJudgedAsWhenItsNameComesFirst() {
        let count = NameValuePairs.keptValueLimit / 16 + 1
        for long in [String(repeating: "Zq8Lr3Wx9Tn2Kp5V", count: count), String(repeating: "a", count: count * 16)] {
            let valueFirst = TestSupport.scan(#"[{"value": "\#(long)", "name": "password"}]"#).findings
            let nameFirst = TestSupport.scan(#"[{"name": "password", "value": "\#(long)"}]"#).findings
            #expect(valueFirst.map(\.message) == nameFirst.map(\.message))
        }
        let findings = TestSupport.scan(#"[{"value": "\#(String(repeating: "Zq8Lr3Wx9Tn2Kp5V", count: count))", "name": "password"}]"#).findings
        #expect(findings.first?.message.contains("a \(count * 16)-character value") == true)
    }

    @Test func anyOfTwoNamesJudgesTheValue() {
        #expect(found(#"[{"key": "k1", "name": "api_key", "value": "Zq8Lr3Wx9Tn2Kp5Vb7"}, {"value": "Hz7Kq2Wm9Xp4Lr8N", "name": "ordinary", "key": "db_password"}]"#)
            == ["name.api-key /0/value key=api_key 44", "name.password /1/value key=db_password 77"])
    }

    @Test func nestedPairsAreTheirObjectsOwn() {
        // The inner object's name does not judge the outer object's value, nor the reverse.
        #expect(found(#"{"value": "Hz7Kq2Wm9Xp4Lr8N", "inner": {"name": "password"}, "name": "color"}"#).isEmpty)
        #expect(found(#"{"name": "password", "inner": {"value": "Hz7Kq2Wm9Xp4Lr8N"}}"#).isEmpty)
        #expect(found(#"{"name": "password", "inner": {"name": "color", "value": "Hz7Kq2Wm9Xp4Lr8N"}, "value": "Wq2Zr8Lx3Tn9Kp4V"}"#)
            == ["name.password /value key=password 88"])
    }

    /// A HAR's headers are judged by the capture's own reader, once; a pair in a body's JSON is
    /// judged as in a file.
    @Test func aHARsFieldsAreJudgedOnceAndItsBodiesPairs() {
        let body = #"{\"variables\": [{\"key\": \"db_password\", \"value\": \"Hz7Kq2Wm9Xp4Lr8N\"}]}"#
        let har = #"{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [{"request": {"method": "POST", "url": "https://api.example.com/env", "headers": [{"name": "X-Api-Key", "value": "Zq8Lr3Wx9Tn2Kp5Vb7"}], "postData": {"mimeType": "application/json", "text": "\#(body)"}}, "response": {"status": 200, "content": {}}}]}}"#
        #expect(TestSupport.scan(har, name: "env.har").findings.map { "\($0.ruleId) \($0.pathText) key=\($0.key ?? "-")" }
            == ["name.api-key /log/entries/0/request/headers/0/value key=X-Api-Key",
                "name.password /log/entries/0/request/postData/text!json/variables/0/value key=db_password"])
    }

    @Test func onlyNameKeyAndValueInAnyCaseArePairMembers() {
        func role(_ key: String) -> NameValueRole { Array(key.utf8).withUnsafeBufferPointer { NameValueRole(key: $0) } }
        #expect(["name", "Name", "KEY", "key", "ParameterKey", "ParameterName", "OptionName"].map(role) == Array(repeating: .name, count: 7))
        #expect(["value", "Value", "VALUE", "ParameterValue"].map(role) == [.value, .value, .value, .value])
        #expect(["names", "keys", "values", "nam", "val", "label", "id", "", "OptionValue", "ParameterKeys", "Parameter"].allSatisfy { role($0) == .none })
    }

    /// CloudFormation's and RDS's parameters and Elastic Beanstalk's option settings name their
    /// values so; before, `{"ParameterKey": "DBPassword", "ParameterValue": …}` gave nothing.
    @Test func cloudFormationAndBeanstalkSpellingsArePairs() {
        #expect(found(#"[{"ParameterKey": "DBUser", "ParameterValue": "admin"}, {"ParameterKey": "DBPassword", "ParameterValue": "Tr0ub4dor-x9Lq2mZ"}]"#)
            == ["name.password /1/ParameterValue key=DBPassword 106"])
        #expect(found(#"{"Parameters": [{"ParameterValue": "Tr0ub4dor-x9Lq2mZ", "ParameterName": "master_password"}]}"#)
            == ["name.password /Parameters/0/ParameterValue key=master_password 36"])
        #expect(found(#"{"OptionSettings": [{"Namespace": "aws:elasticbeanstalk:application:environment", "OptionName": "DB_PASSWORD", "Value": "Tr0ub4dor-x9Lq2mZ"}]}"#)
            == ["name.password /OptionSettings/0/Value key=DB_PASSWORD 121"])
    }

    /// A `value` member that no name member names, in an object under a sensitive key, is
    /// judged by that key: Azure's parameter files and `terraform output -json` wrap values so.
    /// Before, `{"adminPassword": {"value": …}}` gave nothing.
    @Test func aWrappedValueIsJudgedByItsObjectsKey() {
        #expect(found(#"{"parameters": {"adminUsername": {"value": "azureuser"}, "adminPassword": {"value": "Tr0ub4dor-x9Lq2mZ"}}}"#)
            == ["name.password /parameters/adminPassword/value key=adminPassword 85"])
        #expect(found(#"{"db_password": {"sensitive": true, "type": "string", "value": "Tr0ub4dor-x9Lq2mZ"}}"#)
            == ["name.password /db_password/value key=db_password 64"])
        // Only the value member: not a description beside it, not a value under a plain key, and
        // a value's own hits say more; a wrapped container or placeholder is no secret.
        #expect(found(#"{"token": {"description": "Tr0ub4dor-x9Lq2mZ"}, "setting": {"value": "Tr0ub4dor-x9Lq2mZ"}, "api_key": {"value": {"a": 1}}, "secret": {"value": "changeme"}}"#).isEmpty)
        #expect(found(#"{"auth": {"value": "Bearer \#(github)"}}"#) == ["secret.github-token /auth/value key=auth 20"])
    }
}
