#include "mongo/transport/tls.h"

#include <gtest/gtest.h>
#include <openssl/x509.h>

#include <memory>

namespace mongo {
namespace {

TEST(TlsOptions, ModesParseIncludingTheOldSslSpellings) {
    EXPECT_EQ(TlsMode::kDisabled, parseTlsMode("disabled").getValue());
    EXPECT_EQ(TlsMode::kAllowTLS, parseTlsMode("allowTLS").getValue());
    EXPECT_EQ(TlsMode::kPreferTLS, parseTlsMode("preferSSL").getValue());
    EXPECT_EQ(TlsMode::kRequireTLS, parseTlsMode("requireTLS").getValue());
    auto bad = parseTlsMode("requiretls");
    ASSERT_FALSE(bad.isOK());
    EXPECT_EQ(ErrorCodes::BadValue, bad.getStatus().code());
    EXPECT_EQ("unsupported value for tlsMode requiretls", bad.getStatus().reason());
    EXPECT_EQ("preferTLS", tlsModeName(TlsMode::kPreferTLS));
}

TEST(TlsOptions, AModeOtherThanDisabledNeedsACertificateKeyFile) {
    TlsOptions o;
    o.mode = TlsMode::kRequireTLS;
    o.caFile = "/tmp/ca.pem";
    Status s = validateTlsOptions(o);
    EXPECT_EQ(ErrorCodes::BadValue, s.code());
    EXPECT_EQ("need tlsCertificateKeyFile or certificateSelector when TLS is enabled", s.reason());
    o.certificateKeyFile = "/tmp/server.pem";
    EXPECT_TRUE(validateTlsOptions(o).isOK());
}

TEST(TlsOptions, CertificateOptionsWithoutAModeAreRefused) {
    TlsOptions o;
    EXPECT_TRUE(validateTlsOptions(o).isOK());
    o.caFile = "/tmp/ca.pem";
    Status s = validateTlsOptions(o);
    EXPECT_EQ(ErrorCodes::BadValue, s.code());
    EXPECT_EQ(
        "need to enable TLS via the sslMode/tlsMode flag when using TLS configuration "
        "parameters",
        s.reason());
    TlsOptions p;
    p.disabledProtocolsGiven = true;
    EXPECT_EQ(ErrorCodes::BadValue, validateTlsOptions(p).code());
}

TEST(TlsOptions, DisabledProtocolsParseAListOrNone) {
    EXPECT_EQ(0u, parseTlsDisabledProtocols("none").getValue());
    EXPECT_EQ(unsigned(kTls1_0 | kTls1_1), parseTlsDisabledProtocols("TLS1_0,TLS1_1").getValue());
    auto bad = parseTlsDisabledProtocols("TLS1_0,SSL3");
    EXPECT_EQ(ErrorCodes::BadValue, bad.getStatus().code());
    EXPECT_EQ("Unrecognized disabledProtocols 'SSL3'", bad.getStatus().reason());
    EXPECT_FALSE(parseTlsDisabledProtocols("TLS1_0,TLS1_1,TLS1_2,TLS1_3").isOK());
    EXPECT_EQ(unsigned(kTls1_0), TlsOptions{}.disabledProtocols);
}

std::unique_ptr<X509_NAME, decltype(&X509_NAME_free)> makeName(
    std::initializer_list<std::pair<const char*, const char*>> entries) {
    std::unique_ptr<X509_NAME, decltype(&X509_NAME_free)> name(X509_NAME_new(), &X509_NAME_free);
    for (const auto& [field, value] : entries) {
        X509_NAME_add_entry_by_txt(name.get(), field, MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char*>(value), -1, -1, 0);
    }
    return name;
}

TEST(X509SubjectName, MostSpecificAttributeComesFirst) {
    auto name = makeName({{"C", "US"}, {"O", "Test"}, {"OU", "clients"}, {"CN", "alice"}});
    EXPECT_EQ("CN=alice,OU=clients,O=Test,C=US", x509NameToRfc2253(name.get()));
}

TEST(X509SubjectName, SpecialCharactersAreEscapedAndUtf8IsKept) {
    auto name = makeName({{"O", "Acme, Inc."}, {"CN", "J\xC3\xBCrgen+1"}});
    EXPECT_EQ("CN=J\xC3\xBCrgen\\+1,O=Acme\\, Inc.", x509NameToRfc2253(name.get()));
}

TEST(X509SubjectName, NullAndEmptyNamesGiveAnEmptyString) {
    EXPECT_EQ("", x509NameToRfc2253(nullptr));
    auto empty = makeName({});
    EXPECT_EQ("", x509NameToRfc2253(empty.get()));
}

}  // namespace
}  // namespace mongo
