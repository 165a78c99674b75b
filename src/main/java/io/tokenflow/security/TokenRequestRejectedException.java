package io.tokenflow.security;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

import io.tokenflow.web.Problems;

/** A token request that cannot be granted as asked (unknown or disallowed scope, bad name or lifetime): 422. */
public class TokenRequestRejectedException extends ErrorResponseException {

    public TokenRequestRejectedException(String detail) {
        super(HttpStatus.UNPROCESSABLE_CONTENT, problem(detail), null);
    }

    private static ProblemDetail problem(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_CONTENT, detail);
        problem.setType(URI.create(Problems.TYPE_BASE + "token-request-rejected"));
        problem.setTitle("Token request rejected");
        return problem;
    }

    @Override
    public String getMessage() {
        return getBody().getDetail();
    }
}
