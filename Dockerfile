# The same image as `make oci` (tools/ociimage), for users with Docker:
#   make images && docker build -t kgmcp .
#   docker run --rm -p 8080:8080 --read-only kgmcp
# A static kgmcp, the images under a read-only /images, a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -buildid=" -o /kgmcp ./cmd/kgmcp \
 && printf 'root:x:0:0:root:/:/sbin/nologin\nkgmcp:x:65532:65532:kgmcp:/:/sbin/nologin\n' > /passwd \
 && printf 'root:x:0:\nkgmcp:x:65532:\n' > /group

FROM scratch
COPY --from=build /passwd /etc/passwd
COPY --from=build /group /etc/group
COPY --from=build --chmod=555 /kgmcp /kgmcp
COPY --chmod=444 build/*.kgimg /images/
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/kgmcp"]
CMD ["--http", "0.0.0.0:8080", "/images"]
